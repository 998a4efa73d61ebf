import { ProblemError } from '#libs/problem';
import { aSignup } from '../testing/signup.js';
import type { Signup } from './signup.js';
import { accessOf, requireActionable, requireOwned, requireVisible } from './signup.policy.js';

const owner = { organizationId: 'org_a', livemode: true };

const signup = (overrides: Partial<Signup> = {}): Signup => aSignup({ livemode: true, status: 'draft', publishedAt: null, ...overrides });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err.code;
    throw err;
  }
  return undefined;
}

describe('accessOf', () => {
  it('gives the owning organization in the same mode full access in every status', () => {
    for (const status of ['draft', 'published', 'closed'] as const) expect(accessOf(signup({ status }), owner)).toBe('owner');
  });

  it('shows published and closed signups of another organization publicly', () => {
    expect(accessOf(signup({ organizationId: 'org_b', status: 'published' }), owner)).toBe('public');
    expect(accessOf(signup({ organizationId: 'org_b', status: 'closed' }), owner)).toBe('public');
  });

  it('hides a draft of another organization', () => {
    expect(accessOf(signup({ organizationId: 'org_b' }), owner)).toBe('none');
  });

  it('hides every signup of the other mode, even a published one of the same organization', () => {
    expect(accessOf(signup({ livemode: false }), owner)).toBe('none');
    expect(accessOf(signup({ livemode: false, status: 'published' }), owner)).toBe('none');
    expect(accessOf(signup({ livemode: false, status: 'closed', organizationId: 'org_b' }), owner)).toBe('none');
  });
});

describe('requireVisible', () => {
  it('answers not_found alike for an absent signup and for a draft of another organization', () => {
    expect(codeOf(() => requireVisible(undefined, owner))).toBe('not_found');
    expect(codeOf(() => requireVisible(signup({ organizationId: 'org_b' }), owner))).toBe('not_found');
  });

  it('returns a published signup of another organization', () => {
    const other = signup({ organizationId: 'org_b', status: 'published' });
    expect(requireVisible(other, owner)).toBe(other);
  });
});

describe('requireActionable', () => {
  it('forbids any action on a visible signup of another organization', () => {
    for (const action of ['update', 'publish', 'close', 'delete'] as const) {
      expect(codeOf(() => requireActionable(signup({ organizationId: 'org_b', status: 'closed' }), owner, action))).toBe('forbidden');
    }
  });

  it('answers not_found for a draft of another organization before looking at the action', () => {
    expect(codeOf(() => requireActionable(signup({ organizationId: 'org_b' }), owner, 'close'))).toBe('not_found');
  });

  it('answers conflict for a transition the state table refuses', () => {
    expect(codeOf(() => requireActionable(signup({ status: 'closed' }), owner, 'publish'))).toBe('conflict');
    expect(codeOf(() => requireActionable(signup({ status: 'draft' }), owner, 'close'))).toBe('conflict');
    expect(codeOf(() => requireActionable(signup({ status: 'closed' }), owner, 'update'))).toBe('conflict');
  });

  it('returns the signup for an owned action that applies or is already done', () => {
    const published = signup({ status: 'published' });
    expect(requireActionable(published, owner, 'publish')).toBe(published);
    expect(requireActionable(published, owner, 'close')).toBe(published);
  });
});

describe('requireOwned', () => {
  it('lets the owner act in every status', () => {
    for (const status of ['draft', 'published', 'closed'] as const)
      expect(codeOf(() => requireOwned(signup({ status }), owner))).toBeUndefined();
  });

  it("forbids another organization's public signup and hides the rest", () => {
    expect(codeOf(() => requireOwned(signup({ organizationId: 'org_b', status: 'closed' }), owner))).toBe('forbidden');
    expect(codeOf(() => requireOwned(signup({ organizationId: 'org_b' }), owner))).toBe('not_found');
    expect(codeOf(() => requireOwned(signup({ livemode: false, status: 'published' }), owner))).toBe('not_found');
    expect(codeOf(() => requireOwned(undefined, owner))).toBe('not_found');
  });
});
