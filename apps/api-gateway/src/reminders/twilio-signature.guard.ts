import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EdgeRateLimiter, type FormParams, isTwilioSignatureValid } from '#libs/edge';
import type { Logger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { APP_CONFIG, LOGGER } from '#libs/runtime';
import type { GatewayConfig } from '../gateway.config.js';

/** Where Twilio posts the texts people send to our number, outside the REST prefix. */
export const TWILIO_INBOUND_ROUTE = 'hooks/twilio/inbound';

/**
 * Lets a request through only when its X-Twilio-Signature verifies with TWILIO_AUTH_TOKEN over
 * {origin of PUBLIC_BASE_URL}/hooks/twilio/inbound and the form parameters. Signed requests are
 * not rate limited (Twilio sends them from shared addresses); a refused one counts against its
 * address like a refused credential, so guessing is limited.
 */
@Injectable()
export class TwilioSignatureGuard implements CanActivate {
  private readonly url: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
    private readonly limiter: EdgeRateLimiter,
  ) {
    this.url = `${new URL(config.publicBaseUrl).origin}/${TWILIO_INBOUND_ROUTE}`;
    if (!config.twilioAuthToken) logger.info(`TWILIO_AUTH_TOKEN is not set: ${this.url} refuses every inbound SMS`);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const body = request.body;
    const params: FormParams = typeof body === 'object' && body !== null ? (body as FormParams) : {};
    const signature = request.headers['x-twilio-signature'];
    const token = this.config.twilioAuthToken;
    if (token && isTwilioSignatureValid(token, typeof signature === 'string' ? signature : undefined, this.url, params)) return true;
    const verdict = await this.limiter.check({ ip: request.ip, write: true });
    http.getResponse<FastifyReply>().headers(verdict.headers);
    throw verdict.refusal ?? new ProblemError('forbidden', 'The X-Twilio-Signature header does not verify for this request.');
  }
}
