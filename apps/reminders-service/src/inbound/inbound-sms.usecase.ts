import { Injectable } from '@nestjs/common';
import { type InboundSms, isPhoneNumber, toE164 } from '#libs/contracts';
import { OptOutsRepository } from './opt-outs.repository.js';

/** Twilio's standard opt-out, opt-in and help keywords: the whole message, any case. */
const KEYWORDS = {
  stop: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
  start: ['START', 'YES', 'UNSTOP'],
  help: ['HELP', 'INFO'],
} as const;

export const HELP_REPLY =
  'Signup reminders: texts about the signups you registered for. Reply STOP to opt out, START to opt back in. Msg & data rates may apply.';
export const START_REPLY = 'You will get signup reminders again. Reply STOP to opt out.';

type Keyword = keyof typeof KEYWORDS;

function keywordOf(body: string): Keyword | undefined {
  const word = body.trim().toUpperCase();
  return (Object.keys(KEYWORDS) as Keyword[]).find((k) => (KEYWORDS[k] as readonly string[]).includes(word));
}

/**
 * A reply to our number: STOP opts the sender out (the provider confirms it itself), START opts
 * them back in, HELP gets the help text. Anything else is ignored.
 */
@Injectable()
export class InboundSmsUseCase {
  constructor(private readonly optOuts: OptOutsRepository) {}

  async execute({ from, body }: InboundSms): Promise<{ reply: string | null }> {
    const keyword = keywordOf(body);
    if (!keyword || !isPhoneNumber(from)) return { reply: null };
    const phone = toE164(from);
    switch (keyword) {
      case 'stop':
        await this.optOuts.optOut(phone);
        return { reply: null };
      case 'start':
        await this.optOuts.optIn(phone);
        return { reply: START_REPLY };
      case 'help':
        return { reply: HELP_REPLY };
    }
  }
}
