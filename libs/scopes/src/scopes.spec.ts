import { Controller, Get, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ProblemError } from '#libs/problem';
import { Auth, type AuthRequirement } from './auth.decorator.js';
import { ALL_SCOPES, parseScopeString, SCOPES } from './catalog.js';
import { undeclaredRoutes, walkRoutes } from './route-walk.js';
import { assertAllowed, type ScopedCaller, ScopeGuard } from './scope.guard.js';

@Controller('things')
class ThingsController {
  @Get() @Auth.operation('things.list', { access: 'scope', scope: 'signups:read', apiKeyOnly: false }) list() {
    return [];
  }
  @Get('open') @Auth.public() open() {
    return {};
  }
  @Get('forgotten') forgotten() {
    return {};
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

function contextFor(handler: (...args: never[]) => unknown, principal?: object) {
  return {
    getHandler: () => handler,
    getClass: () => ThingsController,
    switchToHttp: () => ({ getRequest: () => ({ principal }) }),
  } as never;
}

describe('scope catalog', () => {
  it('has the eight scopes of the contract, each described', () => {
    expect(ALL_SCOPES).toEqual([
      'signups:read',
      'signups:write',
      'participants:read',
      'participants:write',
      'register:write',
      'analytics:read',
      'ai:draft',
      'reminders:send',
    ]);
    for (const s of ALL_SCOPES) expect(SCOPES[s].length).toBeGreaterThan(10);
  });

  it('parses space and plus separated scope strings', () => {
    expect(parseScopeString('signups:read+ai:draft  bogus')).toEqual({ scopes: ['signups:read', 'ai:draft'], unknown: ['bogus'] });
  });
});

describe('route declarations', () => {
  it('finds routes that declare nothing', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
    expect(undeclaredRoutes(moduleRef)).toEqual(['ThingsController.forgotten (things/forgotten)']);
  });

  it('reports what each route requires and the operation it serves, if any', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ThingsModule] }).compile();
    expect(walkRoutes(moduleRef).find((r) => r.handler === 'list')).toMatchObject({
      requirement: { access: 'scope', scope: 'signups:read', apiKeyOnly: false },
      operation: 'things.list',
    });
    expect(walkRoutes(moduleRef).find((r) => r.handler === 'open')?.operation).toBeUndefined();
  });
});

describe('ScopeGuard', () => {
  const guard = new ScopeGuard();
  const proto = ThingsController.prototype;

  it('lets a caller with the scope through', () => {
    expect(guard.canActivate(contextFor(proto.list, { kind: 'api_key', scopes: ['signups:read'] }))).toBe(true);
  });

  it('refuses a caller without the scope, naming it', () => {
    let caught: unknown;
    try {
      guard.canActivate(contextFor(proto.list, { kind: 'oauth', scopes: ['ai:draft'] }));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProblemError);
    expect(caught).toMatchObject({
      code: 'scope_required',
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="signups:read"' },
    });
    expect((caught as ProblemError).detail).toContain('signups:read');
  });

  it('leaves public routes alone', () => {
    expect(guard.canActivate(contextFor(proto.open))).toBe(true);
  });
});

describe('assertAllowed on an API-key-only requirement open to a first-party client', () => {
  const requirement: AuthRequirement = {
    access: 'credential',
    apiKeyOnly: true,
    firstParty: { clientId: 'dashboard', scope: 'participants:write' },
  };
  const problemOf = (caller: ScopedCaller): unknown => {
    try {
      assertAllowed(requirement, caller);
      return undefined;
    } catch (err) {
      return err;
    }
  };

  it('lets in an API key whatever its scopes, and the first-party client holding the scope', () => {
    expect(problemOf({ kind: 'api_key', scopes: [] })).toBeUndefined();
    expect(problemOf({ kind: 'oauth', clientId: 'dashboard', scopes: ['participants:write'] })).toBeUndefined();
  });

  it('refuses the first-party client without the scope (a member) with scope_required, and any other OAuth client as forbidden', () => {
    expect(problemOf({ kind: 'oauth', clientId: 'dashboard', scopes: ['signups:read'] })).toMatchObject({ code: 'scope_required' });
    expect(problemOf({ kind: 'oauth', clientId: 'cli_other', scopes: ['participants:write'] })).toMatchObject({ code: 'forbidden' });
    expect(problemOf({ kind: 'oauth', scopes: ['participants:write'] })).toMatchObject({ code: 'forbidden' });
  });
});
