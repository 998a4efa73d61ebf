import { Test } from '@nestjs/testing';
import type { Bus } from '#libs/bus';
import { type EdgeSubject, requirementOf, type Subject, SUBJECT_CATALOG } from '#libs/contracts';
import { BUS } from '#libs/runtime';
import { type DeclaredRoute, walkRoutes } from '#libs/scopes';
import { createTestStack, type TestStack } from '#libs/testing';
import { apiGatewayApp } from './index.js';

/**
 * Stands for any argument of a route (path parameter, body, query, principal, reply) and for any
 * answer of the bus: each of its properties, and each call, is itself again; as text it is empty.
 */
const anything: unknown = new Proxy(function anything() {}, {
  get: (_target, key) => {
    if (key === 'then') return undefined;
    if (key === Symbol.toPrimitive) return () => '';
    if (key === Symbol.iterator) return [][Symbol.iterator];
    return anything;
  },
  apply: () => anything,
});

describe('api-gateway operations', () => {
  let stack: TestStack;
  let routes: DeclaredRoute[];

  beforeAll(async () => {
    stack = await createTestStack('gateway-operations');
    routes = walkRoutes((await stack.boot(apiGatewayApp)).app);
  });

  afterAll(() => stack.close());

  const operationRoutes = () => routes.filter((r): r is DeclaredRoute & { operation: EdgeSubject } => r.operation !== undefined);

  it('serves every route that reads a credential as one operation of the subject catalog', () => {
    const unserved = routes.filter(
      (r) => r.operation === undefined && r.requirement?.access !== 'public' && r.requirement?.access !== 'admin',
    );
    expect(unserved.map((r) => `${r.controller}.${r.handler}`)).toEqual([]);
  });

  it('requires of the caller of each operation route what its subject requires, and offers no internal subject', () => {
    for (const route of operationRoutes()) {
      expect({ route: route.path, access: SUBJECT_CATALOG[route.operation].access }).not.toEqual({ route: route.path, access: 'internal' });
      expect({ route: route.path, requirement: route.requirement }).toEqual({
        route: route.path,
        requirement: requirementOf(route.operation),
      });
    }
  });

  it('makes each operation route ask its own subject, once', async () => {
    let asked: Subject[] = [];
    const bus: Pick<Bus, 'request' | 'requestJson'> = {
      request: async (subject) => {
        asked.push(subject);
        return anything as never;
      },
      requestJson: async (subject) => {
        asked.push(subject);
        return JSON.stringify(anything);
      },
    };
    const controllers = [...new Set(operationRoutes().map((r) => r.controllerClass))];
    const moduleRef = await Test.createTestingModule({ controllers, providers: [{ provide: BUS, useValue: bus }] }).compile();
    for (const route of operationRoutes()) {
      const controller = moduleRef.get<Record<string, (...args: unknown[]) => unknown>>(route.controllerClass);
      asked = [];
      await controller[route.handler]!(...Array<unknown>(controller[route.handler]!.length).fill(anything));
      expect({ route: `${route.controller}.${route.handler}`, asked }).toEqual({
        route: `${route.controller}.${route.handler}`,
        asked: [route.operation],
      });
    }
  });
});
