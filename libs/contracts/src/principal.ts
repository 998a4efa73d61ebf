import type { Tier } from '#libs/config';
import { assertAllowed, type AuthRequirement, type FirstPartyAccess, type Scope } from '#libs/scopes';
import { DASHBOARD_CLIENT_ID } from './oauth-metadata.js';
import { type EdgeSubject, type HandlersOf, type ServiceName, type Subject, SUBJECT_CATALOG } from './subjects.js';

/** Who is calling, as established at the edge and carried in every bus request. */
export interface Principal {
  userId: string;
  organizationId: string;
  tier: Tier;
  /** true for sgn_live_ keys and OAuth tokens, false for sgn_test_ keys. */
  livemode: boolean;
  scopes: Scope[];
  credentialId: string;
  kind: 'api_key' | 'oauth';
  clientId?: string;
}

/** A request from an edge to a service on behalf of a principal. */
export interface Authorized<T = Record<string, never>> {
  principal: Principal;
  input: T;
}

/** What a route or tool of this subject requires of its caller, from the subject catalog. */
export function requirementOf(subject: EdgeSubject): AuthRequirement {
  const entry = SUBJECT_CATALOG[subject];
  switch (entry.access) {
    case 'internal':
      throw new Error(`${subject} is internal: no route or tool serves it`);
    case 'public':
    case 'optional':
      return { access: entry.access };
    case 'credential': {
      const apiKeyOnly = entry.credentials !== 'any';
      const firstParty: FirstPartyAccess | undefined =
        entry.credentials === 'api_key_or_dashboard' ? { clientId: DASHBOARD_CLIENT_ID, scope: 'participants:write' } : undefined;
      const kinds = { apiKeyOnly, ...(firstParty && { firstParty }) };
      return entry.scope === null ? { access: 'credential', ...kinds } : { access: 'scope', scope: entry.scope, ...kinds };
    }
  }
}

/**
 * Checks the caller of a subject against its catalog entry, with the problems the edges answer
 * (missing_credentials, forbidden for an OAuth token where only API keys go, scope_required).
 */
export function authorize(subject: Subject, principal: Principal | undefined): void {
  const entry = SUBJECT_CATALOG[subject];
  if (entry.access === 'credential') assertAllowed(requirementOf(subject as EdgeSubject), principal);
}

/**
 * An owner's handlers, each behind the check of its subject's catalog entry: the edges check
 * before they ask, the service checks again (defense in depth) without a handler doing it.
 */
export function authorized<O extends ServiceName>(handlers: HandlersOf<O>): HandlersOf<O> {
  const entries = Object.entries(handlers) as [Subject, (req: { principal?: Principal }) => Promise<unknown>][];
  return Object.fromEntries(
    entries.map(([subject, handler]) => [
      subject,
      async (req: { principal?: Principal }) => {
        authorize(subject, req.principal);
        return handler(req);
      },
    ]),
  ) as unknown as HandlersOf<O>;
}
