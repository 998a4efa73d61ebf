import { randomBytes } from 'node:crypto';
import { newId, PARTICIPANT_CALENDAR_TOKEN_PATTERN } from '#libs/contracts';
import { ParticipantCalendarTokens } from './calendar-token.js';

const tokensUnder = (key: string) => new ParticipantCalendarTokens({ confirmationTokenKey: key });
const key = randomBytes(32).toString('base64');

/** The token with one character of its encoded part changed at this index (after `pcal_`). */
function altered(token: string, index: number): string {
  const at = 'pcal_'.length + index;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

describe('participant calendar tokens', () => {
  it('are pcal_ tokens, the same for a participant each time, that give back the participant id', () => {
    const tokens = tokensUnder(key);
    const id = newId();
    const token = tokens.tokenOf(id);
    expect(token).toMatch(PARTICIPANT_CALENDAR_TOKEN_PATTERN);
    expect(tokensUnder(key).tokenOf(id)).toBe(token);
    expect(tokens.participantOf(token)).toBe(id);
    expect(tokens.tokenOf(newId())).not.toBe(token);
  });

  it('refuses a token whose id or MAC was changed, one made under another key, and a second spelling of the same bytes', () => {
    const tokens = tokensUnder(key);
    const token = tokens.tokenOf(newId());
    expect(tokens.participantOf(altered(token, 0))).toBeUndefined();
    expect(tokens.participantOf(altered(token, 40))).toBeUndefined();
    expect(tokensUnder(randomBytes(32).toString('base64')).participantOf(token)).toBeUndefined();
    // 54 base64url characters carry 324 bits for 320: the last character's low bits are dropped on decoding.
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(tokens.participantOf(`${token.slice(0, -1)}${sibling}`)).toBeUndefined();
  });

  it('reads nothing from a confirmation token or a malformed value', () => {
    const tokens = tokensUnder(key);
    for (const value of [`cnf_${'a'.repeat(32)}`, 'pcal_', `pcal_${'A'.repeat(53)}`, `pcal_${'A'.repeat(54)}!`, undefined, 42]) {
      expect(tokens.participantOf(value)).toBeUndefined();
    }
  });
});
