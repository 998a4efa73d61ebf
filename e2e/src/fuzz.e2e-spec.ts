import { randomUUID } from 'node:crypto';
import type { MeView, ParticipantView, RegistrationResultView, RegistrationView, SignupView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { signInToDashboard } from './support/dashboard.js';
import { connectionBroke, fetchAnswered } from './support/fetch-answered.js';
import {
  BODY_LIMIT_BYTES,
  type BodyContext,
  type FieldSchema,
  HOSTILE_BODIES,
  HOSTILE_CONDITIONS,
  HOSTILE_HEADERS,
  HOSTILE_PATH_VALUES,
  HOSTILE_QUERY_VALUES,
  HOSTILE_VALUES,
  type Refusal,
  takes,
  TIME_ZONE_VALUES,
  withRaw,
} from './support/hostile-inputs.js';
import { TENANT_PASSWORD } from './support/oauth.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

/**
 * Every REST body endpoint (from the OpenAPI document) and every MCP tool (from tools/list) gets
 * every hostile input of support/hostile-inputs.ts, and so do every query and path parameter: each
 * is refused with a problem that names what was wrong, never a 5xx or a trace of the internals, and
 * nothing the tenant has changes. Requests run a few at a time against one tenant.
 */

interface Schema extends FieldSchema {
  $ref?: string;
  oneOf?: Schema[];
  /** One schema wrapped to carry a description beside its $ref (a nested object field). */
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  example?: unknown;
  examples?: unknown[];
  $defs?: Record<string, Schema>;
}

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema: Schema }> };
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

interface Answer {
  status: number;
  type: string;
  text: string;
  json: unknown;
}

/** Where a body is sent and how: a REST route, or an MCP tool's arguments. */
interface Target {
  label: string;
  /** The object schema of the body or arguments, resolved. */
  schema: Schema;
  resolve(schema: Schema): Schema;
  send(value: string | Uint8Array): Promise<Answer>;
  room: number;
  mcp: boolean;
}

type Expected = { kind: 'field'; path: string } | { kind: 'body' } | { kind: 'shape' };

const CONCURRENCY = 6;
/** What an answer must never show: stack frames, file paths, error classes, database or JSON-RPC internal errors. */
/**
 * Signs of internals in an answer. The JSON-RPC internal error code counts only as a whole
 * number: a request id's last group may begin with its digits (…-326039c2e3ea).
 */
const INTERNALS =
  /node_modules|\bat [\w.<>$]+ \(|\.(?:js|ts):\d+:\d+|\/work\/|QueryFailedError|RangeError|TypeError|URIError|ReferenceError|Maximum call stack|invalid input syntax|violates|internal_error|-32603(?![0-9a-f])/;
const PROBLEM_KEYS = new Set(['type', 'title', 'status', 'code', 'detail', 'instance', 'errors', 'cause']);

/** Runs `run` over `items`, at most `size` at a time, keeping their order. */
async function inPool<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]!);
      }
    }),
  );
  return results;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json };
}

const schemasOf =
  (defs: Record<string, Schema>, prefix: string) =>
  (schema: Schema): Schema => {
    let current = schema.allOf?.length === 1 ? schema.allOf[0]! : schema;
    for (let hops = 0; current.$ref && hops < 10; hops++) current = defs[current.$ref.slice(prefix.length)] ?? {};
    return current;
  };

describe('hostile inputs', () => {
  let tenant: Tenant;
  let info: ReturnType<typeof stackInfo>;
  let apiPrefix: string;
  let doc: OpenApi;
  let tools: { name: string; inputSchema: Schema }[];
  let ids: {
    signup: SignupView;
    slotId: string;
    itemId: string;
    participantId: string;
    token: string;
    webhookId: string;
    /** A signup whose line someone waits in: their registration's token and their entry. */
    waitlist: { signupId: string; token: string; entryId: string };
  };
  /**
   * A signup and a registration of their own for the pages, which nothing else here could have
   * changed: the signup's waitlist is on and its slot full, so the registration waits in its line (entryId).
   */
  let pages: { slug: string; token: string; entryId: string; questions: string[] };
  /** The tenant's calendar feed, made before the hostile requests: none of them may rotate or revoke it. */
  let calendarFeedUrl: string;
  let before: unknown;

  /** A valid value for a field, from its name and schema (ids are the tenant's own). */
  function validValue(name: string, schema: Schema, resolve: (s: Schema) => Schema): unknown {
    const s = resolve(schema);
    if (s.oneOf) return validValue(name, s.oneOf[0]!, resolve);
    if (s.enum) return s.enum[0];
    if (takes(s, 'object') || s.properties) return validObject(s, resolve);
    if (takes(s, 'array'))
      return s.items && (resolve(s.items).properties || (s.minItems ?? 0) > 0) ? [validValue(name, s.items, resolve)] : [];
    if (takes(s, 'boolean')) return false;
    if (takes(s, 'number')) return s.minimum ?? 1;
    if (s.format === 'uuid') {
      const byName: Record<string, string> = {
        signupId: ids.signup.id,
        slotId: ids.slotId,
        itemId: ids.itemId,
        participantId: ids.participantId,
        entryId: ids.waitlist.entryId,
        id: ids.slotId,
      };
      return byName[name] ?? randomUUID();
    }
    if (s.format === 'date-time') return '2027-06-01T18:00:00Z';
    if (s.format === 'email') return 'fuzz@example.com';
    if (s.format === 'uri') return 'http://127.0.0.1:9/fuzz';
    if (name === 'phone') return '+14155550123';
    return 'Fuzz';
  }

  function validObject(schema: Schema, resolve: (s: Schema) => Schema): Record<string, unknown> {
    const s = resolve(schema);
    return Object.fromEntries((s.required ?? []).map((name) => [name, validValue(name, s.properties![name]!, resolve)]));
  }

  /** Every field of an object schema, nested objects included, in arrays (`slots.0.capacity`) or not (`waitlist.mode`). */
  function fieldsOf(
    schema: Schema,
    resolve: (s: Schema) => Schema,
    parent: (string | number)[] = [],
  ): { path: (string | number)[]; schema: Schema }[] {
    return Object.entries(resolve(schema).properties ?? {}).flatMap(([name, property]) => {
      const field = resolve(property);
      const here = [...parent, name];
      const items = field.items && resolve(field.items);
      return [
        { path: here, schema: field },
        ...(field.properties ? fieldsOf(field, resolve, here) : []),
        ...(items?.properties ? fieldsOf(items, resolve, [...here, 0]) : []),
      ];
    });
  }

  /** The valid body with the value at `path` given as JSON text (parents that are absent are made valid first). */
  function bodyWith(target: Target, path: (string | number)[], json: string): string {
    const body = validObject(target.schema, target.resolve);
    let holder: Record<string | number, unknown> = body;
    let schema = target.schema;
    for (const key of path.slice(0, -1)) {
      const resolved = target.resolve(schema);
      const next = typeof key === 'number' ? resolved.items! : resolved.properties![key]!;
      holder[key] ??= typeof key === 'number' ? validObject(next, target.resolve) : validValue(String(key), next, target.resolve);
      holder = holder[key] as Record<string | number, unknown>;
      schema = next;
    }
    const marker = `\u0001${randomUUID()}`;
    holder[path[path.length - 1]!] = marker;
    return JSON.stringify(body).replace(JSON.stringify(marker), () => json);
  }

  function problemFailures(problem: unknown, status: number): string[] {
    if (typeof problem !== 'object' || problem === null) return ['the answer is not a problem object'];
    const p = problem as Record<string, unknown>;
    const failures: string[] = [];
    if (typeof p.type !== 'string' || !p.type.startsWith(`${info.problemBase}/`)) failures.push(`type ${String(p.type)}`);
    if (typeof p.title !== 'string') failures.push('no title');
    if (p.status !== status) failures.push(`status ${String(p.status)} in a ${status}`);
    if (typeof p.code !== 'string') failures.push('no code');
    if (typeof p.instance !== 'string' || !p.instance.startsWith('urn:request:')) failures.push('no instance');
    const extra = Object.keys(p).filter((key) => !PROBLEM_KEYS.has(key));
    if (extra.length) failures.push(`unexpected keys ${extra.join(', ')}`);
    if (p.code === 'validation_failed') {
      const errors = p.errors as { path?: unknown; message?: unknown }[] | undefined;
      if (!Array.isArray(errors) || errors.length === 0) failures.push('no errors');
      else if (
        !errors.every(
          (e) => typeof e.path === 'string' && typeof e.message === 'string' && e.message.length > 0 && Object.keys(e).length === 2,
        )
      )
        failures.push('malformed errors');
    }
    return failures;
  }

  const names = (problem: unknown, path: string): boolean =>
    ((problem as { errors?: { path: string }[] }).errors ?? []).some((e) => e.path === path || e.path.startsWith(`${path}.`));

  /** What is wrong with an answer: empty when it refuses as expected (over MCP when `mcp`). */
  function judge(mcp: boolean, expected: Expected, res: Answer): string[] {
    const failures: string[] = [];
    if (res.status >= 500) failures.push(`answered ${res.status}`);
    if (INTERNALS.test(res.text)) failures.push(`shows internals: ${res.text.slice(0, 3000)}`);
    const httpProblem = !mcp || expected.kind === 'body';
    if (httpProblem) {
      if (res.status !== 422) failures.push(`answered ${res.status}, not 422`);
      if (!res.type.startsWith('application/problem+json')) failures.push(`content type ${res.type}`);
      failures.push(...problemFailures(res.json, res.status));
      const path = expected.kind === 'field' ? expected.path : 'body';
      if (!names(res.json, path)) failures.push(`no error on ${path}: ${res.text.slice(0, 300)}`);
      return failures;
    }
    const rpc = res.json as
      { result?: { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] }; error?: { code?: number } } | undefined;
    if (res.status !== 200) failures.push(`answered ${res.status}, not 200`);
    if (expected.kind === 'shape') {
      if (rpc?.error?.code !== -32602) failures.push(`not InvalidParams: ${res.text.slice(0, 300)}`);
      return failures;
    }
    const result = rpc?.result;
    if (result?.isError !== true) return [...failures, `not a tool error: ${res.text.slice(0, 300)}`];
    failures.push(...problemFailures(result.structuredContent, 422));
    if ((result.structuredContent as { code?: string }).code !== 'validation_failed')
      failures.push(`code ${(result.structuredContent as { code?: string }).code}`);
    if (!names(result.structuredContent, expected.path)) failures.push(`no error on ${expected.path}: ${res.text.slice(0, 300)}`);
    if (result.content?.[0]?.text !== JSON.stringify(result.structuredContent)) failures.push('text and structuredContent differ');
    return failures;
  }

  function restTarget(method: string, path: string, schema: Schema): Target {
    const resolve = schemasOf(doc.components.schemas, '#/components/schemas/');
    const route = routeOf(path);
    return {
      label: `${method.toUpperCase()} ${path.slice(apiPrefix.length)}`,
      schema: resolve(schema),
      resolve,
      room: BODY_LIMIT_BYTES,
      mcp: false,
      send: async (value) =>
        answer(
          await fetchAnswered(`${info.baseUrl}${route}`, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
            body: value,
          }),
        ),
    };
  }

  function toolTarget(tool: { name: string; inputSchema: Schema }): Target {
    const resolve = schemasOf(tool.inputSchema.$defs ?? {}, '#/$defs/');
    const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(tool.name)},"arguments":`;
    const tail = '}}';
    return {
      label: `tool ${tool.name}`,
      schema: tool.inputSchema,
      resolve,
      room: BODY_LIMIT_BYTES - Buffer.byteLength(head + tail),
      mcp: true,
      send: async (value) =>
        answer(
          await fetchAnswered(info.mcpUrl, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${tenant.key}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: typeof value === 'string' ? head + value + tail : Buffer.concat([Buffer.from(head), value, Buffer.from(tail)]),
          }),
        ),
    };
  }

  /** An OpenAPI path as a route under the base URL, its parameters naming the tenant's resources, except `hostile`'s. */
  function routeOf(path: string, hostile?: { param: string; raw: string }): string {
    return path
      .slice(apiPrefix.length)
      .replace(/\{(\w+)\}/g, (_m, name: string) => (name === hostile?.param ? hostile.raw : pathId(path, name)));
  }

  /** The tenant's resource a path parameter names (the first segments say which kind an `id` is, and which registration a waitlist's). */
  function pathId(path: string, name: string): string {
    const route = path.slice(apiPrefix.length);
    const waitlist = route.includes('/waitlist');
    if (name === 'id') {
      if (route.startsWith('/webhooks/deliveries/')) return randomUUID();
      if (route.startsWith('/webhooks/')) return ids.webhookId;
      if (route.startsWith('/orgs/')) return tenant.organization.id;
      return waitlist ? ids.waitlist.signupId : ids.signup.id;
    }
    const byName: Record<string, string> = {
      slotId: ids.slotId,
      itemId: ids.itemId,
      participantId: ids.participantId,
      entryId: ids.waitlist.entryId,
      confirmationToken: waitlist ? ids.waitlist.token : ids.token,
      slugOrId: ids.signup.slug,
    };
    return byName[name] ?? randomUUID();
  }

  /** Every body shape of every REST operation that takes JSON (both shapes of a one-or-many body). */
  function restTargets(): Target[] {
    return Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) return [];
        return (schema.oneOf ?? [schema]).map((shape, i, all) => {
          const target = restTarget(method, path, shape);
          return all.length > 1 ? { ...target, label: `${target.label} (shape ${i + 1})` } : target;
        });
      }),
    );
  }

  const toolTargets = () => tools.map(toolTarget);

  /** One request per field and hostile value; the failures, each labelled. */
  async function fuzzFields(targets: Target[]): Promise<string[]> {
    const cases = targets.flatMap((target) =>
      fieldsOf(target.schema, target.resolve).flatMap(({ path, schema }) => {
        const values = HOSTILE_VALUES.filter((v) => v.appliesTo?.(schema, String(path[path.length - 1])) ?? true).map((v) => ({
          name: v.name,
          json: v.json,
        }));
        if (path[path.length - 1] === 'cursor')
          values.push(...HOSTILE_QUERY_VALUES.map((v) => ({ name: `cursor: ${v.name}`, json: JSON.stringify(decoded(v.raw)) })));
        return values.map((value) => ({ target, path, value }));
      }),
    );
    const failures = await inPool(cases, CONCURRENCY, async ({ target, path, value }) => {
      const res = await target.send(bodyWith(target, path, value.json));
      return judge(target.mcp, { kind: 'field', path: path.join('.') }, res).map(
        (f) => `${target.label} ${path.join('.')} = ${value.name}: ${f}`,
      );
    });
    expect(cases.length).toBeGreaterThan(100);
    return failures.flat();
  }

  /** One request per target and hostile body. */
  async function fuzzBodies(targets: Target[]): Promise<string[]> {
    const cases = targets.flatMap((target) => HOSTILE_BODIES.map((hostile) => ({ target, hostile })));
    const failures = await inPool(cases, CONCURRENCY, async ({ target, hostile }) => {
      const schema = target.resolve(target.schema);
      const context: BodyContext = {
        valid: validObject(schema, target.resolve),
        textField: Object.entries(schema.properties ?? {}).find(([, p]) => takes(target.resolve(p), 'string'))?.[0],
        room: target.room,
      };
      const body = hostile.make(context);
      let res: Answer;
      try {
        res = await target.send(body);
      } catch (err) {
        // A body over the limit may be refused before it is all read: the server answers and closes, and the client, still
        // writing, sees the connection break instead of the answer. That is a refusal too.
        const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
        if (connectionBroke(err) && size > target.room) return [];
        throw err;
      }
      return judge(target.mcp, expectedOf(hostile.refusedAt, context, target), res).map((f) => `${target.label} ${hostile.name}: ${f}`);
    });
    return failures.flat();
  }

  function expectedOf(refusal: Refusal, context: BodyContext, target: Target): Expected {
    if (refusal === 'body') return { kind: 'body' };
    if (refusal === 'shape') return target.mcp ? { kind: 'shape' } : { kind: 'body' };
    return { kind: 'field', path: refusal(context) };
  }

  const decoded = (raw: string): string => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };

  /** Everything the tenant has that a hostile request could change. */
  async function storedData(): Promise<unknown> {
    const { key } = tenant;
    const signups = (await call<{ data: SignupView[] }>('/signups?limit=100', { key })).body.data;
    return {
      signups: await Promise.all(
        signups.map(async (s) => ({
          signup: (await call(`/signups/${s.id}`, { key })).body,
          participants: (await call(`/signups/${s.id}/participants?limit=100`, { key })).body,
        })),
      ),
      webhooks: (await call('/webhooks?limit=100', { key })).body,
      registrations: [
        (await call(`/registrations/${ids.token}`)).body,
        (await call(`/registrations/${pages.token}`)).body,
        (await call(`/registrations/${ids.waitlist.token}`)).body,
      ],
      waitlist: (await call(`/signups/${ids.waitlist.signupId}/waitlist`, { key })).body,
      calendarFeed: (await call('/calendar-feed', { key })).body,
    };
  }

  beforeAll(async () => {
    info = stackInfo();
    apiPrefix = new URL(info.baseUrl).pathname;
    tenant = await newTenant('pro');
    const { signup, slots, items } = await newSignup(tenant.key, {
      slots: [{ title: 'Setup', capacity: 5 }],
      items: [{ name: 'Salad', quantityNeeded: 5 }],
    });
    const registered = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { key: tenant.key, body: person() });
    const participants = await call<{ data: ParticipantView[] }>(`/signups/${signup.id}/participants`, { key: tenant.key });
    // Subscribed to an event nothing here emits: no delivery changes the endpoint while the tests run.
    const webhook = await call<{ endpoint: { id: string } }>('/webhooks', {
      key: tenant.key,
      body: { url: 'http://127.0.0.1:9/fuzz', eventTypes: ['reminder.sent'] },
    });
    const full = await newSignup(tenant.key, { fields: { maxParticipants: 1, waitlist: { enabled: true } } });
    await call(`/signups/${full.signup.id}/participants`, { key: tenant.key, body: person() });
    const waiting = await call<RegistrationResultView>(`/signups/${full.signup.id}/participants`, { key: tenant.key, body: person() });
    const waitingToken = waiting.body.confirmationToken!;
    const entry = (await call<{ participant: ParticipantView }>(`/registrations/${waitingToken}`)).body.participant.waitlist[0]!;
    ids = {
      signup,
      slotId: slots[0]!.id,
      itemId: items[0]!.id,
      participantId: participants.body.data[0]!.id,
      token: registered.body.confirmationToken!,
      webhookId: webhook.body.endpoint.id,
      waitlist: { signupId: full.signup.id, token: waitingToken, entryId: entry.id },
    };
    const forPages = await newSignup(tenant.key, {
      slots: [{ title: 'Setup', capacity: 1 }],
      fields: {
        waitlist: { enabled: true },
        questions: [
          { type: 'multiple_choice', label: 'Days', options: ['Sat', 'Sun'] },
          { type: 'number', label: 'Guests', min: 0, max: 3 },
        ],
      },
    });
    const setup = [{ type: 'slot' as const, id: forPages.slots[0]!.id }];
    await call(`/signups/${forPages.signup.id}/participants`, { key: tenant.key, body: person(setup) });
    const pageRegistration = await call<RegistrationResultView>(`/signups/${forPages.signup.id}/participants`, {
      key: tenant.key,
      body: person(setup),
    });
    const pageToken = pageRegistration.body.confirmationToken!;
    const pageEntry = (await call<RegistrationView>(`/registrations/${pageToken}`)).body.participant.waitlist[0]!;
    pages = {
      slug: forPages.signup.slug,
      token: pageToken,
      entryId: pageEntry.id,
      questions: forPages.signup.questions.map((q) => `q-${q.id}`),
    };
    calendarFeedUrl = (await call<{ url: string }>('/calendar-feed', { key: tenant.key, method: 'POST' })).body.url;
    doc = (await call<OpenApi>('/openapi.json')).body;
    const listed = await fetchAnswered(info.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    tools = ((await listed.json()) as { result: { tools: { name: string; inputSchema: Schema }[] } }).result.tools;
    before = await storedData();
  });

  it('finds the body endpoints in the OpenAPI document and the tools in tools/list', () => {
    expect(restTargets().map((t) => t.label)).toEqual(
      expect.arrayContaining([
        'POST /signups',
        'POST /signups/{id}/participants',
        'PATCH /webhooks/{id}',
        'POST /calendar-feed',
        'DELETE /calendar-feed',
        'POST /signups/{id}/reminders/send',
        'POST /signups/{id}/duplicate',
      ]),
    );
    expect(Object.keys(doc.paths).map((p) => p.slice(apiPrefix.length))).toEqual(
      expect.arrayContaining([
        '/signups/{id}/waitlist',
        '/signups/{id}/waitlist/{entryId}/promote',
        '/registrations/{confirmationToken}/waitlist/{entryId}',
        '/series/{seriesId}/publish',
        '/series/{seriesId}/close',
        '/signups/{id}/participants/export.csv',
        '/signups/{id}/participants/export.ndjson',
        '/signups/{id}/reminders',
      ]),
    );
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'create_signup',
        'register_participant',
        'list_participants',
        'list_waitlist',
        'promote_from_waitlist',
        'send_reminder',
        'duplicate_signup',
        'publish_series',
        'close_series',
      ]),
    );
    expect(ids.waitlist.entryId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses every hostile value in every field of every REST body with a 422 on that field', async () => {
    const create = restTargets().find((t) => t.label === 'POST /signups')!;
    expect(fieldsOf(create.schema, create.resolve).map((f) => f.path.join('.'))).toEqual(
      expect.arrayContaining([
        'timeZone',
        'reminderHoursBefore',
        'waitlist.enabled',
        'waitlist.mode',
        'waitlist.offerMinutes',
        'questions.0.options',
      ]),
    );
    expect(await fuzzFields(restTargets())).toEqual([]);
  });

  it('refuses every hostile REST body: deep nesting, over the limit, prototype keys, bytes that are not UTF-8, not an object', async () => {
    expect(await fuzzBodies(restTargets())).toEqual([]);
  });

  it('refuses every hostile value in every argument of every MCP tool with a tool error on that argument', async () => {
    expect(await fuzzFields(toolTargets())).toEqual([]);
  });

  it('refuses every hostile set of MCP tool arguments, before the tool (422 on body) or as a tool or protocol error', async () => {
    expect(await fuzzBodies(toolTargets())).toEqual([]);
  });

  it('refuses every hostile query parameter with a 422 on it, cursors included', async () => {
    const cases = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .flatMap((param) => [
            ...HOSTILE_QUERY_VALUES.map((value) => ({
              path,
              method,
              param: param.name,
              name: value.name,
              query: `${param.name}=${value.raw}`,
            })),
            { path, method, param: param.name, name: 'given twice', query: `${param.name}=1&${param.name}=2` },
          ]),
      ),
    );
    expect(cases.length).toBeGreaterThan(20);
    const failures = await inPool(cases, CONCURRENCY, async ({ path, method, param, name, query }) => {
      const res = await answer(
        await fetchAnswered(`${info.baseUrl}${routeOf(path)}?${query}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${tenant.key}` },
        }),
      );
      return judge(false, { kind: 'field', path: param }, res).map(
        (f) => `${method.toUpperCase()} ${path.slice(apiPrefix.length)}?${param} = ${name}: ${f}`,
      );
    });
    expect(failures.flat()).toEqual([]);
  });

  it('refuses every hostile If-Match and If-None-Match with a 422 on the header, wherever the document declares one', async () => {
    const cases = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.in === 'header' && (p.name === 'If-Match' || p.name === 'If-None-Match'))
          .flatMap((param) => HOSTILE_CONDITIONS.map((value) => ({ path, method, header: param.name, ...value }))),
      ),
    );
    expect(cases.length).toBeGreaterThan(100);
    const failures = await inPool(cases, CONCURRENCY, async ({ path, method, header, name, value }) => {
      const res = await answer(
        await fetchAnswered(`${info.baseUrl}${routeOf(path)}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${tenant.key}`, [header]: value },
        }),
      );
      return judge(false, { kind: 'field', path: header }, res).map(
        (f) => `${method.toUpperCase()} ${path.slice(apiPrefix.length)} ${header} = ${name}: ${f}`,
      );
    });
    expect(failures.flat()).toEqual([]);
  });

  it('refuses every hostile path parameter with a 4xx problem', async () => {
    const cases = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        [...path.matchAll(/\{(\w+)\}/g)].flatMap(([, param]) =>
          HOSTILE_PATH_VALUES.map((value) => ({ path, method, op, param: param!, value })),
        ),
      ),
    );
    const failures = await inPool(cases, CONCURRENCY, async ({ path, method, op, param, value }) => {
      const route = routeOf(path, { param, raw: value.raw });
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const resolve = schemasOf(doc.components.schemas, '#/components/schemas/');
      const body = schema ? JSON.stringify(validObject(resolve(schema.oneOf?.[0] ?? schema), resolve)) : undefined;
      const res = await answer(
        await fetchAnswered(`${info.baseUrl}${route}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${tenant.key}`, ...(body && { 'content-type': 'application/json' }) },
          body,
        }),
      );
      const label = `${method.toUpperCase()} ${path.slice(apiPrefix.length)} {${param}} = ${value.name}`;
      const failures: string[] = [];
      if (res.status < 400 || res.status >= 500) failures.push(`answered ${res.status}`);
      if (INTERNALS.test(res.text)) failures.push(`shows internals: ${res.text.slice(0, 3000)}`);
      if (!res.type.startsWith('application/problem+json')) failures.push(`content type ${res.type}`);
      failures.push(...problemFailures(res.json, res.status));
      return failures.map((f) => `${label}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
  });

  it("refuses hostile posts to the public signup page, the registration's page and its offer's acceptance with a page, never a 5xx", async () => {
    // Accepting the line the registration waits in is refused whatever the body (no place is offered).
    const paths = [`/s/${pages.slug}`, `/r/${pages.token}`, `/r/${pages.token}/waitlist/${pages.entryId}/accept`];
    // The registration's page takes a name and no email: every body is hostile in its name too, or it would be saved.
    const bodies: { name: string; type: string; body: string | Uint8Array }[] = [
      { name: 'a lone surrogate in the name', type: 'application/json', body: '{"name": "\\ud800", "email": "fuzz@example.com"}' },
      {
        name: 'lone surrogates in the name and the email',
        type: 'application/json',
        body: '{"name": "Fuzz \\udc00", "email": "fuzz\\udc00@example.com"}',
      },
      {
        name: 'a form of a NUL and percent-encoded surrogate bytes',
        type: 'application/x-www-form-urlencoded',
        body: 'name=%00&email=%ED%A0%80',
      },
      { name: 'a form with a __proto__ field', type: 'application/x-www-form-urlencoded', body: '__proto__=x&name=%00&email=not-an-email' },
      { name: 'JSON nested 2000 deep', type: 'application/json', body: `{"name": ${'['.repeat(2000)}${']'.repeat(2000)}}` },
      {
        name: 'a JSON __proto__ key',
        type: 'application/json',
        body: '{"__proto__": {"polluted": true}, "name": "\\ud800", "email": "fuzz@example.com"}',
      },
      {
        name: 'bytes that are not UTF-8',
        type: 'application/json',
        body: Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
      },
      { name: 'a body over the limit', type: 'application/x-www-form-urlencoded', body: `name=${'x'.repeat(BODY_LIMIT_BYTES)}` },
      {
        name: 'ten thousand boxes checked of a question, none offered',
        type: 'application/x-www-form-urlencoded',
        body: `name=%00&email=x&${Array.from({ length: 10_000 }, (_, i) => `${pages.questions[0]}=%ED%A0%80${i}`).join('&')}`,
      },
      {
        name: 'answers of the wrong type and size',
        type: 'application/x-www-form-urlencoded',
        body: `name=%00&email=x&${pages.questions[1]}=1e999&${pages.questions[0]}=${'x'.repeat(100_000)}`,
      },
      {
        name: 'answers as a JSON object',
        type: 'application/json',
        body: JSON.stringify({ name: '\ud800', [pages.questions[1]!]: { a: [1] }, [pages.questions[0]!]: [[['Sat']]] }),
      },
    ];
    const cases = paths.flatMap((page) => bodies.map((body) => ({ page, ...body })));
    const failures = await inPool(cases, CONCURRENCY, async ({ page, name, type, body }) => {
      const res = await fetchAnswered(`${info.gatewayUrl}${page}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
        redirect: 'manual',
      });
      const text = await res.text();
      const failures: string[] = [];
      if (res.status < 400 || res.status >= 500) failures.push(`answered ${res.status}`);
      if (!res.headers.get('content-type')?.startsWith('text/html')) failures.push(`content type ${res.headers.get('content-type')}`);
      if (INTERNALS.test(text)) failures.push('shows internals');
      return failures.map((f) => `POST ${page} ${name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
  });

  it('refuses hostile slugs, feed tokens and participant calendar tokens in the calendar paths with a problem, never a 5xx', async () => {
    const paths = (raw: string) => [
      `/s/${raw}/calendar.ics`,
      `/calendars/${raw}`,
      `/calendars/${raw}.ics`,
      `/calendars/cal_${raw}.ics`,
      `/calendars/pcal_${raw}.ics`,
    ];
    const cases = HOSTILE_PATH_VALUES.flatMap((value) => paths(value.raw).map((path) => ({ path, name: value.name })));
    const failures = await inPool(cases, CONCURRENCY, async ({ path, name }) => {
      const res = await answer(await fetchAnswered(`${info.gatewayUrl}${path}`));
      const found: string[] = [];
      if (res.status < 400 || res.status >= 500) found.push(`answered ${res.status}`);
      if (INTERNALS.test(res.text)) found.push(`shows internals: ${res.text.slice(0, 3000)}`);
      if (!res.type.startsWith('application/problem+json')) found.push(`content type ${res.type}`);
      found.push(...problemFailures(res.json, res.status));
      return found.map((f) => `GET ${path} (${name}): ${f}`);
    });
    expect(failures.flat()).toEqual([]);
    // The feed the tenant made still answers.
    expect((await fetchAnswered(calendarFeedUrl)).status).toBe(200);
  });

  it('refuses hostile headers and bodies on the calendar feed writes (which take no body) with a 4xx problem, running neither', async () => {
    const cases = ['POST', 'DELETE'].flatMap((method) => HOSTILE_HEADERS.map((hostile) => ({ method, ...hostile })));
    const failures = await inPool(cases, CONCURRENCY, async ({ method, name, headers, body }) => {
      const res = await answer(
        await fetchAnswered(`${info.baseUrl}/calendar-feed`, {
          method,
          headers: { authorization: `Bearer ${tenant.key}`, ...headers },
          body,
        }),
      );
      const found: string[] = [];
      if (res.status < 400 || res.status >= 500) found.push(`answered ${res.status}`);
      if (INTERNALS.test(res.text)) found.push(`shows internals: ${res.text.slice(0, 3000)}`);
      if (!res.type.startsWith('application/problem+json')) found.push(`content type ${res.type}`);
      found.push(...problemFailures(res.json, res.status));
      return found.map((f) => `${method} /calendar-feed ${name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
    expect((await fetchAnswered(calendarFeedUrl)).status).toBe(200);
  });

  it("refuses hostile entry ids in a registration's waitlist moves with a page, never a 5xx", async () => {
    // None names an entry of the registration, so leaving changes nothing.
    const cases = ['accept', 'leave'].flatMap((move) => HOSTILE_PATH_VALUES.map((value) => ({ move, value })));
    const failures = await inPool(cases, CONCURRENCY, async ({ move, value }) => {
      const res = await fetchAnswered(`${info.gatewayUrl}/r/${pages.token}/waitlist/${value.raw}/${move}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      const text = await res.text();
      const failures: string[] = [];
      if (res.status < 400 || res.status >= 500) failures.push(`answered ${res.status}`);
      if (!res.headers.get('content-type')?.startsWith('text/html')) failures.push(`content type ${res.headers.get('content-type')}`);
      if (INTERNALS.test(text)) failures.push('shows internals');
      return failures.map((f) => `POST /r/{token}/waitlist/{entryId}/${move} {entryId} = ${value.name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
  });

  it('refuses hostile unsubscribe tokens (shown and posted) and mailbox ids with a page, never a 5xx', async () => {
    // A token of the right shape that the platform did not seal: its page shows a button, and posting it is refused.
    const forged = { name: 'a forged token', raw: `v1.${'A'.repeat(16)}.${'A'.repeat(22)}.${'A'.repeat(120)}` };
    const cases = [
      { method: 'POST', path: `/unsubscribe/${forged.raw}`, value: forged, body: 'List-Unsubscribe=One-Click' },
      ...HOSTILE_PATH_VALUES.flatMap((value) => [
        { method: 'GET', path: `/unsubscribe/${value.raw}`, value, body: undefined },
        { method: 'POST', path: `/unsubscribe/${value.raw}`, value, body: 'List-Unsubscribe=One-Click' },
        { method: 'GET', path: `/mailbox/${value.raw}`, value, body: undefined },
        { method: 'GET', path: `/mailbox/${value.raw}/html`, value, body: undefined },
        { method: 'GET', path: `/mailbox/${value.raw}/invite.ics`, value, body: undefined },
      ]),
    ];
    const failures = await inPool(cases, CONCURRENCY, async ({ method, path, value, body }) => {
      const res = await fetchAnswered(`${info.gatewayUrl}${path}`, {
        method,
        ...(body !== undefined && { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
        redirect: 'manual',
      });
      const text = await res.text();
      const failures: string[] = [];
      if (res.status < 400 || res.status >= 500) failures.push(`answered ${res.status}`);
      if (!res.headers.get('content-type')?.startsWith('text/html')) failures.push(`content type ${res.headers.get('content-type')}`);
      if (INTERNALS.test(text)) failures.push('shows internals');
      return failures.map((f) => `${method} ${path.replace(value.raw, '{value}')} = ${value.name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
  });

  it('refuses hostile client registrations, sign-in, sign-up and password reset forms, account email links and authorization parameters at the auth-server, never with a 5xx', async () => {
    const auth = info.authUrl;
    const UNKNOWN_TOKEN = 'A'.repeat(43);
    const registration = {
      client_name: 'Fuzz CLI',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'signups:read',
    };
    const fieldTypes: Record<keyof typeof registration, FieldSchema> = {
      client_name: { type: 'string' },
      redirect_uris: { type: 'array' },
      grant_types: { type: 'array' },
      response_types: { type: 'array' },
      token_endpoint_auth_method: { type: 'string', enum: ['none'] },
      scope: { type: 'string' },
    };
    const context: BodyContext = { valid: registration, textField: 'client_name', room: BODY_LIMIT_BYTES };
    const json = { 'content-type': 'application/json' };
    const signupPage = await fetchAnswered(`${auth}/account/signup`);
    const signupForm = {
      cookie: signupPage.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
      csrf: encodeURIComponent(/name="csrf" value="([^"]+)"/.exec(await signupPage.text())![1]!),
    };
    const FIELD_VALUES = [...HOSTILE_QUERY_VALUES, { name: 'a __proto__ field', raw: 'x&__proto__=x' }];
    const FORM_VALUES = [...FIELD_VALUES, { name: 'a body over the limit', raw: 'x'.repeat(BODY_LIMIT_BYTES) }];
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // Every hostile value of a known field is refused. A whole body may also be taken: RFC 7591 has a server ignore the
    // metadata it does not know (prototype keys among them), and oidc-provider reads bytes that are not UTF-8 as U+FFFD.
    const cases: {
      name: string;
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Uint8Array;
      mayRegister?: boolean;
    }[] = [
      ...Object.entries(fieldTypes).flatMap(([field, schema]) =>
        HOSTILE_VALUES.filter((value) => value.appliesTo?.(schema, field) ?? true).map((value) => ({
          name: `registration ${field}: ${value.name}`,
          url: `${auth}/oauth/register`,
          headers: json,
          body: withRaw(context, field, value.json),
        })),
      ),
      ...HOSTILE_BODIES.map((body) => ({
        name: `registration body: ${body.name}`,
        url: `${auth}/oauth/register`,
        headers: json,
        body: body.make(context),
        mayRegister: true,
      })),
      // The sign-up form with its anti-CSRF pair, so each value reaches the checks of the fields (refused before the
      // sign-up limit counts it); the sign-in form without, so that no failed sign-in counts against this address.
      ...FORM_VALUES.map((value) => ({
        name: `sign-up form: ${value.name}`,
        url: `${auth}/account/signup`,
        headers: { ...form, cookie: signupForm.cookie },
        body: `csrf=${signupForm.csrf}&email=${value.raw}&password=${value.raw}&organization=${value.raw}`,
      })),
      // A valid account but for its time zone: refused before the sign-up limit counts it, so no account is made. An empty
      // zone is no hostile value there: the field is optional (UTC).
      ...[
        ...FORM_VALUES,
        ...TIME_ZONE_VALUES.filter(({ value }) => value !== '').map(({ name, value }) => ({ name, raw: encodeURIComponent(value) })),
      ].map((value, i) => ({
        name: `sign-up form time zone: ${value.name}`,
        url: `${auth}/account/signup`,
        headers: { ...form, cookie: signupForm.cookie },
        body: `csrf=${signupForm.csrf}&email=zone${i}.${Date.now()}%40example.com&password=a+long+password&organization=Zones&timeZone=${value.raw}`,
      })),
      ...FORM_VALUES.map((value) => ({
        name: `sign-in form: ${value.name}`,
        url: `${auth}/account/login`,
        headers: form,
        body: `email=${value.raw}&password=${value.raw}`,
      })),
      // The account email forms and links: the address of a password reset, a new password, and the links' tokens (and the
      // OAuth interaction's resend), each with the anti-CSRF pair so the value reaches its own check. The app's body limit
      // is the sign-up and sign-in forms' case above.
      ...FIELD_VALUES.map((value) => ({
        name: `forgot-password form: ${value.name}`,
        url: `${auth}/account/forgot-password`,
        headers: { ...form, cookie: signupForm.cookie },
        body: `csrf=${signupForm.csrf}&email=${value.raw}`,
      })),
      ...FIELD_VALUES.map((value) => ({
        name: `new password: ${value.name}`,
        url: `${auth}/account/reset-password/${UNKNOWN_TOKEN}`,
        headers: { ...form, cookie: signupForm.cookie },
        body: `csrf=${signupForm.csrf}&password=${value.raw}`,
      })),
      ...[...HOSTILE_PATH_VALUES, { name: 'a token of the right shape that names nothing', raw: UNKNOWN_TOKEN }].flatMap((value) => [
        { name: `verification link: ${value.name}`, url: `${auth}/account/verify/${value.raw}`, method: 'GET' },
        {
          name: `verification link posted: ${value.name}`,
          url: `${auth}/account/verify/${value.raw}`,
          headers: { ...form, cookie: signupForm.cookie },
          body: `csrf=${signupForm.csrf}`,
        },
        { name: `reset link: ${value.name}`, url: `${auth}/account/reset-password/${value.raw}`, method: 'GET' },
        {
          name: `reset link posted: ${value.name}`,
          url: `${auth}/account/reset-password/${value.raw}`,
          headers: { ...form, cookie: signupForm.cookie },
          body: `csrf=${signupForm.csrf}&password=a%20long%20enough%20password`,
        },
        {
          name: `interaction resend: ${value.name}`,
          url: `${auth}/oauth/authorize/${value.raw}/interaction/resend`,
          headers: form,
          body: 'csrf=x',
        },
      ]),
      ...['client_id', 'redirect_uri', 'scope', 'state', 'response_mode', 'code_challenge', 'resource'].flatMap((param) =>
        HOSTILE_QUERY_VALUES.map((value) => ({
          name: `authorize ${param}: ${value.name}`,
          url: `${auth}/oauth/authorize?response_type=code&client_id=cli_fuzz&${param}=${value.raw}`,
          method: 'GET',
        })),
      ),
    ];
    const failures = await inPool(cases, CONCURRENCY, async ({ name, url, method, headers, body, mayRegister }) => {
      const res = await fetchAnswered(url, { method: method ?? 'POST', headers, body, redirect: 'manual' });
      const text = await res.text();
      const found: string[] = [];
      if (!(mayRegister && res.status === 201) && (res.status < 400 || res.status >= 500)) found.push(`answered ${res.status}`);
      if (INTERNALS.test(text)) found.push('shows internals');
      return found.map((f) => `${name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
  });

  it("refuses hostile values on the signed-in account pages' forms and queries (key name, mode, scopes, time zone, ids, notices) with a page, never a 5xx", async () => {
    const auth = info.authUrl;
    const owner = await newTenant('pro');
    const cookies = new Map<string, string>();
    const remember = (res: Response) => {
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';') as [string];
        cookies.set(pair.slice(0, pair.indexOf('=')), pair);
      }
      return res;
    };
    const cookieHeader = () => [...cookies.values()].join('; ');
    const csrfOf = async (res: Response) => encodeURIComponent(/name="csrf" value="([^"]+)"/.exec(await res.text())![1]!);
    const loginCsrf = await csrfOf(remember(await fetchAnswered(`${auth}/account/login`)));
    const signedIn = remember(
      await fetchAnswered(`${auth}/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
        body: `csrf=${loginCsrf}&email=${encodeURIComponent(owner.user.email)}&password=${encodeURIComponent(TENANT_PASSWORD)}`,
        redirect: 'manual',
      }),
    );
    expect(signedIn.status).toBe(303);
    const csrf = await csrfOf(await fetchAnswered(`${auth}/account/api-keys`, { headers: { cookie: cookieHeader() } }));
    const values = [...HOSTILE_QUERY_VALUES, { name: 'a __proto__ field', raw: 'x&__proto__=x' }];
    const zones = [...values, ...TIME_ZONE_VALUES.map(({ name, value }) => ({ name, raw: encodeURIComponent(value) }))];
    const cases = [
      ...zones.map((value) => ({ name: `time zone: ${value.name}`, path: '/account/time-zone', body: `timeZone=${value.raw}` })),
      ...values.map((value) => ({
        name: `time zone's organization: ${value.name}`,
        path: `/account/time-zone?org=${value.raw}`,
        body: 'timeZone=UTC',
      })),
      ...values.flatMap((value) => [
        { name: `key name: ${value.name}`, path: '/account/api-keys', body: `name=${value.raw}&mode=test&scope=signups:read` },
        { name: `key mode: ${value.name}`, path: '/account/api-keys', body: `name=k&mode=${value.raw}&scope=signups:read` },
        { name: `key scope: ${value.name}`, path: '/account/api-keys', body: `name=k&mode=test&scope=${value.raw}` },
        { name: `organization: ${value.name}`, path: `/account/api-keys?org=${value.raw}`, body: 'name=k&mode=test&scope=signups:read' },
      ]),
      ...HOSTILE_PATH_VALUES.flatMap((value) => [
        { name: `key to revoke: ${value.name}`, path: `/account/api-keys/${value.raw}/revoke`, body: '' },
        { name: `app to revoke: ${value.name}`, path: `/account/apps/${value.raw}/revoke`, body: '' },
      ]),
      ...values.map((value) => ({ name: `overview notice: ${value.name}`, path: `/account?password=${value.raw}`, body: undefined })),
      { name: 'verification resend with extra fields', path: '/account/verification/resend', body: 'email=x&__proto__=x' },
    ];
    const failures = await inPool(cases, CONCURRENCY, async ({ name, path, body }) => {
      const res = await fetchAnswered(`${auth}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
        ...(body !== undefined && { body: `csrf=${csrf}&${body}` }),
        redirect: 'manual',
      });
      const text = await res.text();
      const found: string[] = [];
      if (res.status >= 500) found.push(`answered ${res.status}`);
      if (INTERNALS.test(text)) found.push('shows internals');
      return found.map((f) => `${name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
    expect((await call<MeView>('/me', { key: owner.key })).body.organization.timeZone).toBe('UTC');
    // A few failed sign-ins of hostile emails, well within this address's allowance, so no other test's sign-in is refused.
    const signIns = await Promise.all(
      ['%00', '%ED%A0%80', '%E0%A4%A', 'a%00%40example.com'].map((email) =>
        fetch(`${auth}/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
          body: `csrf=${loginCsrf}&email=${email}&password=x`,
          redirect: 'manual',
        }),
      ),
    );
    expect(signIns.map((res) => res.status)).toEqual([401, 401, 401, 401]);
  });

  it('refuses hostile values in every form, query and path of the organizer dashboard with a page, never a 5xx, and leaves its records readable', async () => {
    const owner = await newTenant('pro');
    const live = (await owner.newKey({ mode: 'live' })).key;
    const created = await call<SignupView>('/signups', {
      key: live,
      body: { title: 'Dashboard fuzz', eventDate: '2027-06-01T18:00:00Z', questions: [{ type: 'short_text', label: 'Diet' }] },
    });
    const signup = created.body.id;
    const question = created.body.questions[0]!.id;
    const slot = (await call<{ id: string }>(`/signups/${signup}/slots`, { key: live, body: { title: 'Door', capacity: 2 } })).body.id;
    await call(`/signups/${signup}/publish`, { key: live, method: 'POST' });
    await call(`/signups/${signup}/participants`, { body: person([{ type: 'slot', id: slot }]) });
    const participant = (await call<{ data: ParticipantView[] }>(`/signups/${signup}/participants`, { key: live })).body.data[0]!.id;
    const dashboard = await signInToDashboard(owner.user.email);
    await dashboard.get(`/app/signups/${signup}`);
    const values = [...HOSTILE_QUERY_VALUES, { name: 'a __proto__ field', raw: 'x&__proto__=x' }];
    const forms: Record<string, { base: string; fields: string[] }> = {
      [`/app/signups/${signup}/edit`]: {
        base: 'title=T&eventDate=2027-06-01T18%3A00&timeZone=UTC',
        fields: [
          'title',
          'description',
          'eventDate',
          'timeZone',
          'location',
          'maxParticipants',
          'signupCloseDate',
          'reminderHoursBefore',
          'requiresPhone',
          'waitlistEnabled',
          'waitlistMode',
          'waitlistOfferMinutes',
          'etag',
          'question-0-id',
          'question-0-label',
          'question-0-type',
          'question-0-options',
          'question-0-remove',
        ],
      },
      [`/app/signups/${signup}/slots`]: { base: 'title=S&capacity=1', fields: ['title', 'startTime', 'endTime', 'capacity'] },
      [`/app/signups/${signup}/items`]: { base: 'name=I&quantityNeeded=1', fields: ['name', 'quantityNeeded'] },
      [`/app/signups/${signup}/duplicate`]: { base: 'frequency=once', fields: ['frequency', 'eventDate', 'count'] },
      [`/app/signups/${signup}/participants/${participant}/edit`]: {
        base: 'name=N&email=n%40example.com',
        fields: ['name', 'email', 'phone', 'etag', `slot-${slot}`, `q-${question}`],
      },
      [`/app/signups/${signup}/reminders`]: { base: 'channel=email', fields: ['channel'] },
      '/app/signups/draft': { base: 'description=Picnic', fields: ['description', 'timeZone'] },
      '/app/signups/draft/create': {
        base: 'title=D&eventDate=2027-06-01T18%3A00',
        fields: ['eventDate', 'slot-0-title', 'slot-0-keep', 'slot-0-capacity', 'item-0-name', 'item-0-quantityNeeded'],
      },
      '/app/webhooks': { base: 'url=https%3A%2F%2Fexample.com%2Fh&event-all=on', fields: ['url', 'description', 'event-all'] },
      '/app/organization': { base: '', fields: ['organization'] },
    };
    const posts = Object.entries(forms).flatMap(([path, { base, fields }]) =>
      fields.flatMap((field) =>
        values.map((value) => ({ name: `${path} ${field}: ${value.name}`, path, body: `${base}&${field}=${value.raw}` })),
      ),
    );
    const queries = values.flatMap((value) =>
      [
        `/app/signups?status=${value.raw}&cursor=${value.raw}`,
        `/app/signups/${signup}?done=${value.raw}`,
        `/app/signups/${signup}/participants?q=${value.raw}&status=${value.raw}`,
        `/app/signups/${signup}/participants/rows?q=${value.raw}&status=${value.raw}`,
        `/app/signups/${signup}/check-in?q=${value.raw}`,
        `/app/signups/${signup}/reminders?done=${value.raw}&email=${value.raw}`,
        `/app/webhooks?cursor=${value.raw}&done=${value.raw}`,
        `/app/signin?return=${value.raw}`,
        `/app/callback?state=${value.raw}&code=${value.raw}`,
      ].map((path) => ({ name: `${path.split('?')[0]} query: ${value.name}`, path, body: undefined })),
    );
    const paths = HOSTILE_PATH_VALUES.flatMap((value) => [
      ...[
        `/app/signups/${value.raw}`,
        `/app/signups/${value.raw}/participants`,
        `/app/signups/${value.raw}/qr.svg`,
        `/app/signups/${value.raw}/analytics`,
        `/app/signups/${signup}/participants/${value.raw}/edit`,
        `/app/signups/${signup}/participants/${value.raw}/delete`,
        `/app/signups/${signup}/${value.raw}/${value.raw}/edit`,
        `/app/signups/${value.raw}/delete`,
        `/app/webhooks/${value.raw}`,
        `/app/webhooks/${value.raw}/delete`,
        `/app/assets/${value.raw}`,
      ].map((path) => ({
        name: `GET ${path}: ${value.name}`,
        path,
        body: undefined,
      })),
      ...[
        `/app/signups/${value.raw}/publish`,
        `/app/signups/${signup}/${value.raw}`,
        `/app/signups/${signup}/check-in/${value.raw}`,
        `/app/signups/${signup}/waitlist/${value.raw}/promote`,
        `/app/webhooks/${value.raw}/pause`,
      ].map((path) => ({ name: `POST ${path}: ${value.name}`, path, body: '' })),
    ]);
    const failures = await inPool([...posts, ...queries, ...paths], CONCURRENCY, async ({ name, path, body }) => {
      const page = body === undefined ? await dashboard.get(path) : await dashboard.postRaw(path, body);
      const found: string[] = [];
      if (page.status >= 500) found.push(`answered ${page.status}`);
      if (INTERNALS.test(page.html)) found.push('shows internals');
      return found.map((f) => `${name}: ${f}`);
    });
    expect(failures.flat()).toEqual([]);
    // The forms reached the API (the session's csrf went with them): a refused value is the API's 422, not the form's 403.
    expect((await dashboard.postRaw(`/app/signups/${signup}/slots`, 'title=S&capacity=%00')).status).toBe(422);
    expect((await call(`/signups/${signup}`, { key: live })).status).toBe(200);
    expect((await call(`/signups/${signup}/participants/${participant}`, { key: live })).status).toBe(200);
  });

  it('changed nothing the tenant has', async () => {
    expect(await storedData()).toEqual(before);
  });
});
