import { Body, Controller, HttpCode, Inject, Post, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import type { FormParams } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { Auth, Unmetered } from '#libs/scopes';
import { TWILIO_INBOUND_ROUTE, TwilioSignatureGuard } from './twilio-signature.guard.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** TwiML: text `reply` back to the sender, or answer nothing. */
function twiml(reply: string | null): string {
  const message = reply === null ? '' : `<Message>${reply.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)}</Message>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${message}</Response>`;
}

function single(value: FormParams[string]): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Twilio's incoming-message webhook: STOP, START and HELP replies, answered with TwiML. */
@ApiExcludeController()
@Controller()
export class TwilioInboundController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post(TWILIO_INBOUND_ROUTE)
  @HttpCode(200)
  @Auth.public()
  @Unmetered()
  @UseGuards(TwilioSignatureGuard)
  async inbound(@Body() params: FormParams, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { reply: text } = await this.bus.request('reminders.inbound', { from: single(params.From), body: single(params.Body) });
    reply.header('content-type', 'text/xml; charset=utf-8');
    return twiml(text);
  }
}
