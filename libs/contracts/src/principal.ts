import type { Tier } from '#libs/config';
import { missingScope, type Scope } from '#libs/scopes';

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

/** Defense in depth: services re-check the scope the edge already checked. */
export function assertScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw missingScope(scope);
}
