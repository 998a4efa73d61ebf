import { SUBJECT_CATALOG, SUBJECTS, deadlineOf } from './subjects.js';

describe('the subject catalog', () => {
  it('holds one entry per subject', () => {
    expect(Object.keys(SUBJECT_CATALOG)).toEqual(SUBJECTS);
    expect(new Set(SUBJECTS).size).toBe(SUBJECTS.length);
  });

  it('marks as internal the subjects the apps ask among themselves (credential checks, inbound SMS), which no route or tool offers', () => {
    expect(SUBJECTS.filter((s) => SUBJECT_CATALOG[s].access === 'internal').sort()).toEqual([
      'auth.apikeys.verify', 'auth.members.role', 'auth.oauth.jwks', 'auth.oauth.revocations', 'auth.orgs.tier', 'reminders.inbound',
    ]);
  });

  it('gives the slow subjects their deadlines and leaves the others to the bus default', () => {
    expect(SUBJECTS.filter((s) => deadlineOf(s) !== undefined).map((s) => [s, deadlineOf(s)])).toEqual([
      ['signups.drafts.create', 125_000],
      ['reminders.passes.run', 300_000],
      ['webhooks.test', 65_000],
    ]);
  });
});
