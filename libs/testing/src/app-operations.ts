import type { AppDefinition, RunningApp } from '#libs/runtime';
import { undeclaredRoutes } from '#libs/scopes';
import { createTestStack, type TestStack } from './test-infrastructure.js';

/**
 * What every app must do whatever its domain: boot on the test stack, declare an access
 * requirement on every route, answer /healthz, /readyz (checking its own dependencies) and
 * /metrics, and keep its tables in its own schema.
 */
export function describeAppOperations(definition: AppDefinition, env: Record<string, string> = {}): void {
  describe(`${definition.name} operations`, () => {
    let stack: TestStack;
    let running: RunningApp;

    beforeAll(async () => {
      stack = await createTestStack(definition.name, { env });
      running = await stack.boot(definition);
    });

    afterAll(() => stack.close());

    it('declares an access requirement on every route', () => {
      expect(undeclaredRoutes(running.app)).toEqual([]);
    });

    it('answers /healthz', async () => {
      const res = await fetch(`${running.url}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    });

    it('answers /readyz after checking its own dependencies', async () => {
      const res = await fetch(`${running.url}/readyz`);
      expect(res.status).toBe(200);
      const expected = definition.database ? { postgres: { status: 'up' }, bus: { status: 'up' } } : { bus: { status: 'up' } };
      expect(await res.json()).toEqual({ status: 'ok', checks: expected });
    });

    it('serves Prometheus metrics labelled with its name', async () => {
      const res = await fetch(`${running.url}/metrics`);
      expect(await res.text()).toContain(`app="${definition.name}"`);
    });

    if (definition.database) {
      const { schema, outbox } = definition.database;
      const tables = outbox === false ? ['migrations'] : ['migrations', 'outbox', 'processed_events'];
      it(`keeps its tables (${tables.join(', ')}) in schema ${schema}`, async () => {
        const rows = (await running.context.dataSource!.query(
          `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_name IN ('outbox', 'processed_events', 'migrations') ORDER BY 1, 2`,
        )) as { schema: string; name: string }[];
        expect(rows).toEqual(tables.map((name) => ({ schema, name })));
      });
    }
  });
}
