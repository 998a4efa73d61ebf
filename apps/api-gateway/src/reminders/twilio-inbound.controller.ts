import { Body, Controller, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '#libs/bus';
import { EdgeRateLimiter, isTwilioSignatureValid, type FormParams } from '#libs/edge';
import type { Logger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { BUS, LOGGER } from '#libs/runtime';
import { Auth, Unmetered } from '#libs/scopes';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config.js';

/** Where Twilio posts the texts people send to our number, outside the REST prefix. */
export const TWILIO_INBOUND_ROUTE = 'hooks/twilio/inbound';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** TwiML: text `reply` back to the sender, or answer nothing. */
function twiml(reply: string | null): string {
  const message = reply === null ? '' : `<Message>${reply.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)}</Message>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${message}</Response>`;
}

function single(value: FormParams[string]): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Twilio's incoming-message webhook: STOP, START and HELP replies. The X-Twilio-Signature of
 * every request is checked against TWILIO_AUTH_TOKEN before anything else. Twilio's own calls
 * are not rate limited (they are signed); a refused signature counts against the caller's
 * address like a refused credential, so guessing is limited.
 */
@ApiExcludeController()
@Controller()
export class TwilioInboundController {
  private readonly url: string;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly limiter: EdgeRateLimiter,
  ) {
    this.url = `${new URL(config.publicBaseUrl).origin}/${TWILIO_INBOUND_ROUTE}`;
  }

  @Post(TWILIO_INBOUND_ROUTE)
  @HttpCode(200)
  @Auth.public()
  @Unmetered()
  async inbound(
    @Body() body: FormParams | undefined,
    @Headers('x-twilio-signature') signature: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const params = typeof body === 'object' && body !== null ? body : {};
    const token = this.config.twilioAuthToken;
    if (!token) this.logger.warn('an inbound SMS arrived but TWILIO_AUTH_TOKEN is not set: it cannot be verified');
    if (!token || !isTwilioSignatureValid(token, signature, this.url, params)) {
      const verdict = await this.limiter.check({ ip: request.ip, write: true });
      reply.headers(verdict.headers);
      throw verdict.refusal ?? new ProblemError('forbidden', 'The X-Twilio-Signature header does not verify for this request.');
    }
    const { reply: text } = await this.bus.request('reminders.inbound', { from: single(params.From), body: single(params.Body) });
    reply.header('content-type', 'text/xml; charset=utf-8');
    return twiml(text);
  }
}
