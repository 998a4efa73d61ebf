import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { InProcessBus } from '#libs/bus';
import { type Principal, requirementOf, SUBJECT_CATALOG } from '#libs/contracts';
import { ProblemError, toProblemBody } from '#libs/problem';
import { ALL_SCOPES, type Scope } from '#libs/scopes';
import { TOOL_DEFINITIONS, ToolCatalog } from './tool-catalog.js';

const PROBLEM_BASE = 'https://api.example.test/problems';
const SIGNUP_ID = '0b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a55';
const catalog = new ToolCatalog(PROBLEM_BASE);
const validator = new AjvJsonSchemaValidator();
const tool = (name: string) => catalog.listing.find((t) => t.name === name)!;

function contextFor(scopes: Scope[]) {
  const principal: Principal = {
    userId: 'usr_1',
    organizationId: 'org_1',
    tier: 'pro',
    livemode: false,
    scopes,
    credentialId: 'key_1',
    kind: 'api_key',
  };
  return {
    bus: new InProcessBus({ warn: () => undefined, error: () => undefined }, 50),
    principal,
    publicOrigin: 'https://api.example.test',
  };
}

describe('the MCP tool catalog', () => {
  it('offers the tools of API-DECISIONS.md under the anchor product names', () => {
    expect(catalog.listing.map((t) => t.name).sort()).toEqual([
      'add_items',
      'add_slots',
      'check_in_participant',
      'close_series',
      'close_signup',
      'create_signup',
      'draft_signup_ai',
      'duplicate_signup',
      'get_attendance',
      'get_signup',
      'get_signup_analytics',
      'list_participants',
      'list_signups',
      'list_waitlist',
      'mark_no_show',
      'promote_from_waitlist',
      'publish_series',
      'publish_signup',
      'register_participant',
      'register_self',
      'remove_from_waitlist',
      'remove_participant',
      'send_reminder',
      'update_item',
      'update_signup',
      'update_slot',
      'whoami',
    ]);
  });

  it.each(catalog.listing.map((t) => [t.name, t] as const))(
    'describes %s for an agent: title, description with its scope, every hint',
    (_name, t) => {
      expect(t.title).toMatch(/\S/);
      expect(t.description!.length).toBeGreaterThan(100);
      expect(t.description).toMatch(/Needs (no particular scope|the scope [a-z]+:[a-z]+|one of the scopes .+)\.$/);
      expect(t.annotations).toEqual({
        title: t.title,
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
    },
  );

  it.each(catalog.listing.map((t) => [t.name, t] as const))(
    'gives %s an output schema that admits the problem of a failed call',
    (_name, t) => {
      const validate = validator.getValidator(t.outputSchema as JsonSchemaType);
      const problem = toProblemBody(ProblemError.validation([{ path: 'signupId', message: 'Invalid uuid' }]), PROBLEM_BASE, 'req-1');
      expect(validate(problem)).toMatchObject({ valid: true });
      expect(validate({ something: 'else' })).toMatchObject({ valid: false });
    },
  );

  it('describes inputs as closed objects with their required arguments, the REST body beside the ids of the path', () => {
    expect(tool('add_slots').inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['signupId', 'slots'],
      properties: { signupId: { type: 'string', format: 'uuid' }, slots: { type: 'array', maxItems: 100 } },
    });
    expect(tool('update_slot').inputSchema).toMatchObject({
      required: ['signupId', 'slotId'],
      properties: { description: { type: ['string', 'null'] } },
    });
    expect(tool('whoami').inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(tool('register_self').inputSchema).toMatchObject({ required: ['signupId', 'selections'] });
    expect(Object.keys((tool('register_self').inputSchema as { properties: object }).properties)).not.toContain('email');
  });

  it('takes the waitlist arguments of the REST twins: the query of GET waitlist, the entry of its path, the status filter, the settings', () => {
    expect(tool('list_waitlist').inputSchema).toMatchObject({
      required: ['signupId'],
      properties: { type: { enum: ['signup', 'slot', 'item'] }, targetId: { format: 'uuid' }, cursor: {}, limit: {} },
    });
    for (const name of ['promote_from_waitlist', 'remove_from_waitlist']) {
      expect(tool(name).inputSchema).toMatchObject({ required: ['signupId', 'entryId'], properties: { entryId: { format: 'uuid' } } });
    }
    expect(tool('list_participants').inputSchema).toMatchObject({
      properties: { status: { enum: ['confirmed', 'waitlisted', 'offered', 'cancelled', 'attended', 'no_show'] } },
    });
    for (const name of ['create_signup', 'update_signup']) {
      expect(JSON.stringify(tool(name).inputSchema)).toContain('"offerMinutes"');
    }
  });

  it('takes the reminder lead on create_signup and update_signup: whole hours from 0 to 336, optional', () => {
    for (const name of ['create_signup', 'update_signup']) {
      const schema = tool(name).inputSchema as { properties: Record<string, unknown>; required?: string[] };
      expect(schema.properties['reminderHoursBefore']).toMatchObject({ type: 'integer', minimum: 0, maximum: 336 });
      expect(schema.required).not.toContain('reminderHoursBefore');
    }
  });

  it('answers a missing scope as a tool error naming the scope, before reading the arguments', async () => {
    const result = await catalog.call('create_signup', { title: '' }, contextFor(['signups:read']), 'req-2');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      type: `${PROBLEM_BASE}/scope-required`,
      title: 'Scope required',
      status: 403,
      code: 'scope_required',
      detail: 'This operation requires the scope "signups:write".',
      instance: 'urn:request:req-2',
    });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('accepts either scope of register_self and names both when neither is granted', async () => {
    const refused = await catalog.call('register_self', { signupId: SIGNUP_ID, selections: [] }, contextFor(['signups:read']), 'req-3');
    expect(refused.structuredContent).toMatchObject({
      code: 'scope_required',
      detail: expect.stringContaining('"register:write", "participants:write"'),
    });
    const invalid = await catalog.call('register_self', { signupId: 'nope', selections: [] }, contextFor(['participants:write']), 'req-4');
    expect(invalid.structuredContent).toMatchObject({ code: 'validation_failed' });
  });

  it('names for every tool a subject of the catalog that an edge may ask', () => {
    expect(TOOL_DEFINITIONS.filter((d) => SUBJECT_CATALOG[d.subject].access === 'internal').map((d) => d.name)).toEqual([]);
  });

  const scoped = TOOL_DEFINITIONS.flatMap((d) => {
    const requirement = requirementOf(d.subject);
    return requirement.access === 'scope' ? [[d.name, requirement.scope] as const] : [];
  });
  it.each(scoped)('refuses %s without %s, the scope its subject requires, and says so in its description', async (name, scope) => {
    const result = await catalog.call(name, {}, contextFor(ALL_SCOPES.filter((s) => s !== scope)), 'req-9');
    expect(result.structuredContent).toMatchObject({ code: 'scope_required', detail: `This operation requires the scope "${scope}".` });
    expect(tool(name).description).toMatch(new RegExp(`Needs the scope ${scope}\\.$`));
  });

  it('itemizes invalid arguments as validation_failed, unknown arguments included', async () => {
    const result = await catalog.call(
      'add_slots',
      { signupId: 'nope', slots: [{ title: '', capacity: 0 }], colour: 'red' },
      contextFor(['signups:write']),
      'req-5',
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'validation_failed', status: 422 });
    expect((result.structuredContent as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      'colour',
      'signupId',
      'slots.0.capacity',
      'slots.0.title',
    ]);
  });

  it('refuses any argument to a tool that takes none', async () => {
    const result = await catalog.call('whoami', { verbose: true }, contextFor([]), 'req-7');
    expect(result.structuredContent).toMatchObject({ code: 'validation_failed', errors: [{ path: 'verbose', message: 'Unknown field' }] });
  });

  it('refuses an unknown tool as a protocol error (InvalidParams), not as a tool result', async () => {
    await expect(catalog.call('drop_database', {}, contextFor([...ALL_SCOPES]), 'req-8')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it('answers a service that is down with the problem the bus gives, as a tool error', async () => {
    const result = await catalog.call('get_signup', { signupId: SIGNUP_ID }, contextFor(['signups:read']), 'req-6');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'internal_error',
      status: 500,
      detail: 'The signups service is not available.',
    });
  });
});
