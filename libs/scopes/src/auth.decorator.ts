import 'reflect-metadata';
import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';
import type { Scope } from './catalog.js';
import { ScopeGuard } from './scope.guard.js';

/**
 * What a route requires of its caller. Every route declares exactly one; a route that
 * declares nothing fails the route-walking test and is refused by the credential guard.
 */
export type AuthRequirement =
  | { access: 'public' }
  | { access: 'admin' }
  | { access: 'optional' }
  | { access: 'credential'; apiKeyOnly: boolean; firstParty?: FirstPartyAccess }
  | { access: 'scope'; scope: Scope; apiKeyOnly: boolean; firstParty?: FirstPartyAccess };

/**
 * On an API-key-only requirement: the OAuth tokens of the platform's own client that are let in
 * too, and the scope they must hold (the product's dashboard runs on the API like an integrator,
 * where integrators use API keys).
 */
export interface FirstPartyAccess {
  clientId: string;
  scope: Scope;
}

export const AUTH_REQUIREMENT = 'signup:auth-requirement';
const OPERATION = 'signup:operation';

function declare(requirement: AuthRequirement, ...more: Array<MethodDecorator & ClassDecorator>): MethodDecorator & ClassDecorator {
  const decorators: Array<MethodDecorator & ClassDecorator> = [SetMetadata(AUTH_REQUIREMENT, requirement), ...more];
  if (requirement.access !== 'public' && requirement.access !== 'admin') decorators.push(ApiBearerAuth());
  if (requirement.access === 'scope' || requirement.access === 'credential') decorators.push(UseGuards(ScopeGuard));
  if (requirement.access === 'scope') decorators.push(ApiExtension('x-required-scope', requirement.scope));
  if ('apiKeyOnly' in requirement && requirement.apiKeyOnly) decorators.push(ApiExtension('x-api-key-only', true));
  return applyDecorators(...decorators);
}

export const Auth = {
  /** No credential is read (health, metrics, public pages). */
  public: () => declare({ access: 'public' }),
  /** Operator routes guarded by the operator's admin token, not by a customer credential. */
  admin: () => declare({ access: 'admin' }),
  /** Any valid credential, no particular scope, for a route that is not one operation (the MCP endpoint). */
  credential: () => declare({ access: 'credential', apiKeyOnly: false }),
  /**
   * A route that serves one bus operation, with the requirement of that operation's catalog entry
   * (through Operation in libs/edge, which looks it up).
   */
  operation: (operation: string, requirement: AuthRequirement) => declare(requirement, SetMetadata(OPERATION, operation)),
};

/** The operation a route serves, if it serves one. */
export function operationOf(handler: object): string | undefined {
  return Reflect.getMetadata(OPERATION, handler) as string | undefined;
}

/** The requirement declared on a handler, or on its controller class. */
export function authRequirementOf(handler: object, controller?: object): AuthRequirement | undefined {
  return (Reflect.getMetadata(AUTH_REQUIREMENT, handler) ?? (controller && Reflect.getMetadata(AUTH_REQUIREMENT, controller))) as
    AuthRequirement | undefined;
}

export const UNMETERED = 'signup:unmetered';

/** Keeps a route (or a controller's routes) out of an edge's rate limits: probes, metrics, the problem pages. */
export const Unmetered = (): MethodDecorator & ClassDecorator => SetMetadata(UNMETERED, true);

export function isUnmetered(handler: object, controller?: object): boolean {
  return (
    Reflect.getMetadata(UNMETERED, handler) === true || (controller !== undefined && Reflect.getMetadata(UNMETERED, controller) === true)
  );
}
