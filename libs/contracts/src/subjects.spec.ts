import { ProblemError } from '#libs/problem';
import { ALL_SCOPES } from '#libs/scopes';
import { authorize, authorized, type Principal, requirementOf } from './principal.js';
import type { ReminderPassView } from './reminders.js';
import { deadlineOf, type EdgeSubject, SUBJECT_CATALOG, SUBJECTS } from './subjects.js';

const keyHolder: Principal = {
  userId: 'usr_1',
  organizationId: 'org_1',
  tier: 'pro',
  livemode: false,
  scopes: [...ALL_SCOPES],
  credentialId: 'key_1',
  kind: 'api_key',
};
const problemOf = (fn: () => void): ProblemError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('no problem was thrown');
};

describe('the subject catalog', () => {
  it('holds one entry per subject', () => {
    expect(Object.keys(SUBJECT_CATALOG)).toEqual(SUBJECTS);
    expect(new Set(SUBJECTS).size).toBe(SUBJECTS.length);
  });

  it('marks as internal the subjects the apps ask among themselves (credential checks, inbound SMS, message contexts, the mailbox, unsubscribes, account emails), which no route or tool offers', () => {
    expect(SUBJECTS.filter((s) => SUBJECT_CATALOG[s].access === 'internal').sort()).toEqual([
      'auth.apikeys.verify',
      'auth.members.role',
      'auth.oauth.jwks',
      'auth.oauth.revocations',
      'auth.orgs.profile',
      'auth.orgs.tier',
      'reminders.emails.account',
      'reminders.inbound',
      'reminders.mailbox.get',
      'reminders.mailbox.list',
      'reminders.unsubscribe',
      'signups.participants.messages',
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

describe('requirementOf', () => {
  it.each<[EdgeSubject, ReturnType<typeof requirementOf>]>([
    ['signups.get', { access: 'scope', scope: 'signups:read', apiKeyOnly: false }],
    ['signups.drafts.create', { access: 'scope', scope: 'ai:draft', apiKeyOnly: false }],
    ['reminders.status.get', { access: 'scope', scope: 'reminders:send', apiKeyOnly: false }],
    ['auth.me', { access: 'credential', apiKeyOnly: false }],
    ['webhooks.create', { access: 'credential', apiKeyOnly: true, firstParty: { clientId: 'dashboard', scope: 'participants:write' } }],
    ['webhooks.events.list', { access: 'scope', scope: 'participants:read', apiKeyOnly: true }],
    ['signups.participants.register', { access: 'optional' }],
    ['signups.public.get', { access: 'public' }],
  ])('reads what %s requires from its entry', (subject, requirement) => {
    expect(requirementOf(subject)).toEqual(requirement);
  });
});

describe('authorize', () => {
  it('lets a caller holding the scope through', () => {
    expect(() => authorize('signups.update', keyHolder)).not.toThrow();
  });

  it('refuses a caller without the scope with scope_required naming it, as the edges do', () => {
    const problem = problemOf(() => authorize('signups.update', { ...keyHolder, scopes: ['signups:read'] }));
    expect(problem).toMatchObject({
      code: 'scope_required',
      detail: 'This operation requires the scope "signups:write".',
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="signups:write"' },
    });
  });

  it('refuses an OAuth token where only API keys go', () => {
    expect(problemOf(() => authorize('webhooks.list', { ...keyHolder, kind: 'oauth' })).code).toBe('forbidden');
    expect(() => authorize('webhooks.list', keyHolder)).not.toThrow();
  });

  it('refuses a request without a principal for a subject that needs a credential', () => {
    expect(problemOf(() => authorize('auth.me', undefined)).code).toBe('missing_credentials');
  });

  it('asks nothing of the callers of public, optional and internal subjects', () => {
    for (const subject of ['signups.public.get', 'signups.participants.register', 'auth.apikeys.verify'] as const) {
      expect(() => authorize(subject, undefined)).not.toThrow();
    }
  });
});

describe('authorized', () => {
  const pass: ReminderPassView = { eligible: 0, sent: 0, failed: 0, notEligible: [], channels: {} };
  const ran: string[] = [];
  const handlers = authorized<'reminders'>({
    'reminders.passes.run': async ({ principal }) => {
      ran.push(principal.userId);
      return pass;
    },
    'reminders.outbox.list': async () => ({ data: [] }),
    'reminders.status.get': async () => {
      throw new Error('not used');
    },
    'reminders.inbound': async () => ({ reply: null }),
    'reminders.emails.list': async () => ({ data: [] }),
    'reminders.mailbox.list': async () => ({ data: [] }),
    'reminders.mailbox.get': async () => {
      throw new Error('not used');
    },
    'reminders.unsubscribe': async () => ({ unsubscribed: true }),
    'reminders.emails.account': async () => ({ id: 'e' }),
  });

  it("runs a handler only for a caller its subject's entry lets through", async () => {
    await expect(
      handlers['reminders.passes.run']({ principal: { ...keyHolder, userId: 'usr_reader', scopes: ['signups:read'] }, signupId: 's' }),
    ).rejects.toMatchObject({ code: 'scope_required', detail: 'This operation requires the scope "reminders:send".' });
    await expect(handlers['reminders.passes.run']({ principal: keyHolder, signupId: 's' })).resolves.toEqual(pass);
    expect(ran).toEqual(['usr_1']);
  });

  it('runs the handlers of internal subjects without a principal', async () => {
    await expect(handlers['reminders.inbound']({ from: '+14155550123', body: 'STOP' })).resolves.toEqual({ reply: null });
  });
});
