import { randomUUID } from 'node:crypto';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import type {
  AttendanceView,
  ItemView,
  MeView,
  ParticipantView,
  RegistrationResultView,
  SignupView,
  SlotView,
  WaitlistedParticipantView,
} from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { ALL_SCOPES } from '#libs/scopes';
import { eventually, launchChromium } from '#libs/testing';
import { call, newTenant, request, revokeKey, type Tenant } from './support/api.js';
import { type CallbackServer, connectApp, consent, registerPublicClient, signIn, startCallbackServer, withPage } from './support/oauth.js';
import { type AppProcess, DEFAULT_LIMITS_ENV, type ExtraGateway, startAppProcess, startGateway } from './support/processes.js';
import { smsPass } from './support/reminders.js';
import { stackInfo } from './support/stack-env.js';

const EVERY_SCOPE = ALL_SCOPES.join(' ');
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

const clients: Client[] = [];

/** An MCP client (the SDK's, over Streamable HTTP) presenting `credential` to `url`. */
async function connect(credential: string, url = stackInfo().mcpUrl): Promise<Client> {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }),
  );
  clients.push(client);
  return client;
}

async function use<T extends object>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

async function fails(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ProblemBody> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError).toBe(true);
  const problem = result.structuredContent as unknown as ProblemBody;
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(problem);
  return problem;
}

/** A raw JSON-RPC message to an MCP endpoint, as a client that speaks HTTP itself sends it. */
function rpc(url: string, credential: string | undefined, method: string, params: Record<string, unknown> = {}) {
  return request<Record<string, unknown>>(url, {
    key: credential,
    body: { jsonrpc: '2.0', id: 1, method, params },
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  });
}

/** What an MCP client keeps between the 401 and the token: here in memory, the browser driven by the test. */
class RecordingProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  constructor(private readonly redirectUri: string) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E MCP client',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

describe('the MCP surface', () => {
  let browser: Browser;
  let callback: CallbackServer;
  let tenant: Tenant;
  /** Through the OAuth code flow with resource={mcp_url} and every scope: acts live for the tenant's owner. */
  let agent: Client;
  let mcpToken: string;

  const mcpUrl = () => stackInfo().mcpUrl;

  beforeAll(async () => {
    browser = await launchChromium();
    callback = await startCallbackServer();
    tenant = await newTenant('pro');
    const config = await registerPublicClient(callback.redirectUri);
    const tokens = await connectApp(browser, config, {
      redirectUri: callback.redirectUri,
      email: tenant.user.email,
      scope: EVERY_SCOPE,
      resource: mcpUrl(),
    });
    mcpToken = tokens.access_token;
    agent = await connect(mcpToken);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await browser?.close();
    await callback?.close();
  });

  describe('discovery and authorization, as an MCP client performs them', () => {
    it('challenges a request without a token with a problem and the metadata URL, which leads to the authorization server', async () => {
      const res = await fetch(mcpUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ code: 'missing_credentials', status: 401 });

      const { resourceMetadataUrl } = extractWWWAuthenticateParams(res);
      expect(resourceMetadataUrl?.href).toBe(`${new URL(mcpUrl()).origin}/.well-known/oauth-protected-resource/mcp`);
      const resource = await discoverOAuthProtectedResourceMetadata(mcpUrl(), { resourceMetadataUrl });
      expect(resource).toMatchObject({ resource: mcpUrl(), authorization_servers: [stackInfo().authUrl], scopes_supported: ALL_SCOPES });
      const server = await discoverAuthorizationServerMetadata(resource.authorization_servers![0]!);
      expect(server).toMatchObject({ issuer: stackInfo().authUrl, code_challenge_methods_supported: ['S256'] });
      expect(server?.registration_endpoint).toBeDefined();

      const contractPath = await request(`${stackInfo().authUrl}/.well-known/oauth-protected-resource-mcp`);
      expect(contractPath.body).toEqual(resource);
    });

    it("lets the SDK's own OAuth client go from the 401 through registration and consent to a token for this resource", async () => {
      const provider = new RecordingProvider(callback.redirectUri);
      const first = new Client({ name: 'e2e-oauth-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider });
      await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl());
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

      const code = await withPage(browser, async (page) => {
        await page.goto(authorizationUrl.href);
        await signIn(page, tenant.user.email);
        await consent(page, 'Approve');
        await page.waitForURL((at) => at.href.startsWith(`${callback.redirectUri}?`));
        return new URL(page.url()).searchParams.get('code')!;
      });
      await transport.finishAuth(code);

      const connected = new Client({ name: 'e2e-oauth-agent', version: '1.0.0' });
      await connected.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider }));
      clients.push(connected);
      const me = await use<MeView>(connected, 'whoami');
      expect(me).toMatchObject({ email: tenant.user.email, organization: { id: tenant.organization.id }, credential: { type: 'oauth' } });
    });

    it('refuses a token issued for the REST API with 401, and the MCP token at the REST API', async () => {
      const config = await registerPublicClient(callback.redirectUri);
      const rest = await connectApp(browser, config, {
        redirectUri: callback.redirectUri,
        email: tenant.user.email,
        scope: 'signups:read',
        resource: stackInfo().baseUrl,
      });
      const refused = await rpc(mcpUrl(), rest.access_token, 'tools/list');
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'invalid_credentials', detail: expect.stringContaining('another resource') });
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".+", error="invalid_token"$/);
      await expect(connect(rest.access_token)).rejects.toBeInstanceOf(StreamableHTTPError);

      expect((await call('/me', { key: rest.access_token })).status).toBe(200);
      expect((await call('/me', { key: mcpToken })).status).toBe(401);
    });

    it('answers a revoked API key with 401 revoked_credentials, once every replica heard of the revocation', async () => {
      const key = await tenant.newKey();
      const client = await connect(key.key);
      expect(await use<MeView>(client, 'whoami')).toMatchObject({ credential: { type: 'api_key', mode: 'test' } });
      await revokeKey(key.id);
      await eventually(async () => {
        const refused = await rpc(mcpUrl(), key.key, 'tools/call', { name: 'whoami', arguments: {} });
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ code: 'revoked_credentials' });
      });
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toMatchObject({ code: 401 });
    });
  });

  describe('the transport', () => {
    it('accepts a notification with 202 and offers no stream or session: GET and DELETE are 405', async () => {
      const notification = await request(mcpUrl(), {
        key: tenant.key,
        body: { jsonrpc: '2.0', method: 'notifications/initialized' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(notification.status).toBe(202);
      for (const method of ['GET', 'DELETE']) {
        const res = await request(mcpUrl(), { key: tenant.key, method, headers: { accept: 'text/event-stream' } });
        expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
      }
    });

    it('refuses a JSON-RPC batch: one message per request, one call of the budget each', async () => {
      const message = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
      const res = await request(mcpUrl(), {
        key: tenant.key,
        body: [message(1), message(2)],
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    });

    it('puts the rate limit fields on a body refused before routing, counted against the address', async () => {
      const res = await fetch(mcpUrl(), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":',
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"anonymous-writes";q=\d+;w=60, "anonymous-day";q=\d+;w=86400$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    });

    it('marks every answer as not to be stored: they hold contact details and confirmation tokens', async () => {
      const res = await rpc(mcpUrl(), tenant.key, 'tools/list');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('answers an unknown tool with a JSON-RPC error, not a tool result', async () => {
      const res = await rpc(mcpUrl(), tenant.key, 'tools/call', { name: 'drop_database', arguments: {} });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ error: { code: -32602, message: expect.stringContaining('Unknown tool: drop_database') } });
    });
  });

  describe('tools/list', () => {
    it('shows every tool with a title, an agent-oriented description, input and output schemas and annotations', async () => {
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
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
      for (const tool of tools) {
        expect(tool).toMatchObject({
          title: expect.any(String),
          description: expect.stringMatching(/Needs /),
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', anyOf: expect.any(Array) },
          annotations: { readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) },
        });
      }
      expect(tools.find((tool) => tool.name === 'create_signup')!.inputSchema).toMatchObject({ required: ['title', 'eventDate'] });
    });
  });

  describe('each tool, its success and a failure', () => {
    let signup: SignupView;
    let slot: SlotView;
    let item: ItemView;

    it('whoami tells the organization, the granted scopes and the client id', async () => {
      const me = await use<MeView>(agent, 'whoami');
      expect(me.organization).toMatchObject({ id: tenant.organization.id, tier: 'pro' });
      expect([...me.scopes].sort()).toEqual([...ALL_SCOPES].sort());
      expect(me.credential).toMatchObject({ type: 'oauth', mode: 'live', clientId: expect.stringMatching(/^cli_/) });
    });

    it('create_signup creates a draft, and itemizes invalid arguments', async () => {
      signup = await use<SignupView>(agent, 'create_signup', { title: 'MCP potluck', eventDate: '2027-07-01T17:00:00Z' });
      expect(signup).toMatchObject({ title: 'MCP potluck', status: 'draft', livemode: true, organizationId: tenant.organization.id });
      const problem = await fails(agent, 'create_signup', { title: '', eventDate: 'tomorrow', colour: 'red' });
      expect(problem).toMatchObject({ code: 'validation_failed', status: 422 });
      expect(problem.errors!.map((error) => error.path).sort()).toEqual(['colour', 'eventDate', 'title']);
    });

    it('add_slots adds slots in bulk, and refuses an unknown signup as not_found', async () => {
      const { data } = await use<{ data: SlotView[] }>(agent, 'add_slots', {
        signupId: signup.id,
        slots: [
          { title: 'Setup', capacity: 2 },
          { title: 'Cleanup', capacity: 1 },
        ],
      });
      expect(data.map((s) => s.title)).toEqual(['Setup', 'Cleanup']);
      slot = data[0]!;
      expect((await fails(agent, 'add_slots', { signupId: UNKNOWN_ID, slots: [{ title: 'x', capacity: 1 }] })).code).toBe('not_found');
    });

    it('add_items adds items in bulk, and refuses a quantity of zero', async () => {
      const { data } = await use<{ data: ItemView[] }>(agent, 'add_items', {
        signupId: signup.id,
        items: [{ name: 'Salad', quantityNeeded: 3 }],
      });
      item = data[0]!;
      expect(item).toMatchObject({ name: 'Salad', quantityNeeded: 3, remaining: 3 });
      const problem = await fails(agent, 'add_items', { signupId: signup.id, items: [{ name: 'Cake', quantityNeeded: 0 }] });
      expect(problem.errors).toEqual([{ path: 'items.0.quantityNeeded', message: 'Must be at least 1' }]);
    });

    it('update_signup changes and clears fields, and answers not_found for an unknown signup', async () => {
      const updated = await use<SignupView>(agent, 'update_signup', { signupId: signup.id, location: 'Riverside park', description: null });
      expect(updated).toMatchObject({ location: 'Riverside park', description: null, title: 'MCP potluck' });
      expect((await fails(agent, 'update_signup', { signupId: UNKNOWN_ID, title: 'x' })).code).toBe('not_found');
    });

    it('update_slot and update_item change one of each, and refuse unknown ids', async () => {
      expect(await use<SlotView>(agent, 'update_slot', { signupId: signup.id, slotId: slot.id.toUpperCase(), capacity: 3 })).toMatchObject({
        id: slot.id,
        capacity: 3,
        remaining: 3,
      });
      expect((await fails(agent, 'update_slot', { signupId: signup.id, slotId: UNKNOWN_ID, capacity: 3 })).code).toBe('not_found');
      expect(await use<ItemView>(agent, 'update_item', { signupId: signup.id, itemId: item.id, notes: 'Vegetarian' })).toMatchObject({
        notes: 'Vegetarian',
      });
      expect((await fails(agent, 'update_item', { signupId: signup.id, itemId: 'salad' })).errors).toEqual([
        { path: 'itemId', message: 'Invalid uuid' },
      ]);
    });

    it('close_signup refuses a draft (conflict), publish_signup publishes it', async () => {
      expect((await fails(agent, 'close_signup', { signupId: signup.id })).code).toBe('conflict');
      expect(await use<SignupView>(agent, 'publish_signup', { signupId: signup.id })).toMatchObject({
        status: 'published',
        publicUrl: expect.stringContaining('/s/'),
      });
      expect((await fails(agent, 'publish_signup', { signupId: UNKNOWN_ID })).code).toBe('not_found');
    });

    it('get_signup and list_signups read it back, and refuse a malformed id and a page too large', async () => {
      const read = await use<SignupView>(agent, 'get_signup', { signupId: signup.id });
      expect(read.slots!.map((s) => s.id)).toContain(slot.id);
      expect((await fails(agent, 'get_signup', { signupId: 'potluck' })).code).toBe('validation_failed');
      const page = await use<{ data: SignupView[]; nextCursor: string | null }>(agent, 'list_signups', { status: 'published' });
      expect(page.data.map((s) => s.id)).toContain(signup.id);
      expect((await fails(agent, 'list_signups', { limit: 1000 })).errors).toEqual([{ path: 'limit', message: 'Must be at most 100' }]);
    });

    it('update_signup takes questions, and register_participant answers them; an answer that does not fit is itemized on its question', async () => {
      const updated = await use<SignupView>(agent, 'update_signup', {
        signupId: signup.id,
        questions: [{ type: 'single_choice', label: 'T-shirt size', options: ['S', 'M'] }],
      });
      const [size] = updated.questions;
      expect(size).toMatchObject({ type: 'single_choice', label: 'T-shirt size', required: false, options: ['S', 'M'] });
      const problem = await fails(agent, 'register_participant', {
        signupId: signup.id,
        name: 'Cy',
        email: 'cy@example.com',
        selections: [],
        answers: { [size!.id]: 'XL' },
      });
      expect(problem.errors).toEqual([{ path: `answers.${size!.id}`, message: 'Not one of the options: "XL"' }]);
      const nested = await fails(agent, 'register_participant', {
        signupId: signup.id,
        name: 'Cy',
        email: 'cy@example.com',
        selections: [],
        answers: { [size!.id]: { deep: ['x'] } },
      });
      expect(nested.errors).toEqual([
        { path: 'answers', message: `Answer "${size!.id}": Expected text, a number, a boolean or a list of texts` },
      ]);
      await use<RegistrationResultView>(agent, 'register_participant', {
        signupId: signup.id,
        name: 'Cy',
        email: 'cy@example.com',
        selections: [],
        answers: { [size!.id]: 'M' },
      });
      const { data } = await use<{ data: ParticipantView[] }>(agent, 'list_participants', { signupId: signup.id });
      const cy = data.find((p) => p.email === 'cy@example.com')!;
      expect(cy.answers).toEqual({ [size!.id]: 'M' });
      await use(agent, 'remove_participant', { signupId: signup.id, participantId: cy.id });
    });

    let participant: RegistrationResultView;

    it('register_participant puts the confirmation token first and tells the agent to keep it; a bad email is itemized', async () => {
      const result = (await agent.callTool({
        name: 'register_participant',
        arguments: {
          signupId: signup.id,
          name: 'Ana Lima',
          email: 'ana@example.com',
          phone: '+14155552671',
          selections: [{ type: 'slot', id: slot.id }],
        },
      })) as ToolResult;
      participant = result.structuredContent as unknown as RegistrationResultView;
      expect(participant).toMatchObject({ success: true, confirmationToken: expect.stringMatching(/^cnf_/) });
      const text = (result.content[0] as { text: string }).text;
      expect(text.startsWith(`Confirmation token: ${participant.confirmationToken}\n`)).toBe(true);
      expect(text).toMatch(/Keep this token/);
      expect(text).toContain(`/r/${participant.confirmationToken}`);
      const problem = await fails(agent, 'register_participant', {
        signupId: signup.id,
        name: 'Bo',
        email: 'not-an-email',
        selections: [],
      });
      expect(problem.errors).toEqual([{ path: 'email', message: 'Invalid email' }]);
    });

    it('register_participant says first that nothing was stored when every selection failed, and gives no token', async () => {
      const result = (await agent.callTool({
        name: 'register_participant',
        arguments: { signupId: signup.id, name: 'Dee', email: 'dee@example.com', selections: [{ type: 'slot', id: UNKNOWN_ID }] },
      })) as ToolResult;
      expect(result.isError).toBeFalsy();
      expect((result.content[0] as { text: string }).text).toMatch(/^Nothing was stored: every selection failed/);
      expect(result.structuredContent).toMatchObject({ success: false, failed: [{ type: 'slot', id: UNKNOWN_ID, reason: 'not_found' }] });
      expect(result.structuredContent!.confirmationToken).toBeUndefined();
    });

    it("register_self signs the user up under their account's email, and answers not_found for an unknown signup", async () => {
      const result = (await agent.callTool({
        name: 'register_self',
        arguments: { signupId: signup.id, selections: [{ type: 'item', id: item.id, quantity: 2 }] },
      })) as ToolResult;
      const self = result.structuredContent as unknown as RegistrationResultView;
      expect(self.confirmed).toEqual([{ type: 'item', id: item.id, participantId: expect.any(String) }]);
      expect((result.content[0] as { text: string }).text).toMatch(new RegExp(`^Confirmation token: ${self.confirmationToken}\\n`));
      expect((await fails(agent, 'register_self', { signupId: UNKNOWN_ID, selections: [] })).code).toBe('not_found');
    });

    let people: ParticipantView[];

    it('list_participants shows both with their contacts, and refuses a malformed cursor', async () => {
      ({ data: people } = await use<{ data: ParticipantView[] }>(agent, 'list_participants', { signupId: signup.id }));
      expect(people.map((p) => p.email).sort()).toEqual(['ana@example.com', tenant.user.email].sort());
      expect(people.find((p) => p.email === tenant.user.email)!.name).toBe(tenant.user.email.split('@')[0]);
      expect((await fails(agent, 'list_participants', { signupId: signup.id, cursor: 'nonsense' })).errors).toEqual([
        { path: 'cursor', message: 'Invalid cursor' },
      ]);
    });

    it('get_signup_analytics reports what is filled, and refuses an unknown signup', async () => {
      const analytics = await use<Record<string, unknown>>(agent, 'get_signup_analytics', { signupId: signup.id });
      expect(analytics).toMatchObject({ signupId: signup.id, participantCount: 2, quantityCommitted: 3 });
      expect((await fails(agent, 'get_signup_analytics', { signupId: UNKNOWN_ID })).code).toBe('not_found');
    });

    it('check_in_participant checks the user in with their hours, get_attendance counts them, mark_no_show replaces the check-in', async () => {
      const self = people.find((p) => p.email === tenant.user.email)!;
      const checked = await use<ParticipantView>(agent, 'check_in_participant', {
        signupId: signup.id,
        participantId: self.id,
        hoursServed: 1.5,
      });
      expect(checked).toMatchObject({ id: self.id, status: 'attended', hoursServed: 1.5, checkedInAt: expect.any(String) });
      expect(await use<AttendanceView>(agent, 'get_attendance', { signupId: signup.id })).toMatchObject({
        attended: 1,
        confirmed: 1,
        attendanceRate: 1,
        hoursServed: { total: 1.5, participants: [{ participantId: self.id, hoursServed: 1.5 }] },
      });
      const missed = await use<ParticipantView>(agent, 'mark_no_show', { signupId: signup.id, participantId: self.id });
      expect(missed).toMatchObject({ status: 'no_show', checkedInAt: null, hoursServed: null });
      expect((await use<AttendanceView>(agent, 'get_attendance', { signupId: signup.id })).attendanceRate).toBe(0);
    });

    it('check_in_participant itemizes hours with too many decimals; mark_no_show and get_attendance refuse unknown ids', async () => {
      const self = people.find((p) => p.email === tenant.user.email)!;
      expect(
        (await fails(agent, 'check_in_participant', { signupId: signup.id, participantId: self.id, hoursServed: 0.001 })).errors,
      ).toEqual([{ path: 'hoursServed', message: 'At most 2 decimals' }]);
      expect((await fails(agent, 'mark_no_show', { signupId: signup.id, participantId: UNKNOWN_ID })).code).toBe('not_found');
      expect((await fails(agent, 'get_attendance', { signupId: UNKNOWN_ID })).code).toBe('not_found');
    });

    it('send_reminder texts the participant with a phone, and refuses a draft signup', async () => {
      expect(await use(agent, 'send_reminder', { signupId: signup.id })).toEqual(
        smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }),
      );
      const draft = await use<SignupView>(agent, 'create_signup', { title: 'Not yet', eventDate: '2027-07-02T17:00:00Z' });
      expect((await fails(agent, 'send_reminder', { signupId: draft.id })).code).toBe('bad_request');
    });

    it('remove_participant frees what they held and keeps them as cancelled; a second removal answers the same', async () => {
      const ana = people.find((p) => p.email === 'ana@example.com')!;
      const removed = await use<ParticipantView>(agent, 'remove_participant', { signupId: signup.id, participantId: ana.id });
      expect(removed).toMatchObject({ id: ana.id, status: 'cancelled' });
      expect((await use<SignupView>(agent, 'get_signup', { signupId: signup.id })).slots!.find((s) => s.id === slot.id)).toMatchObject({
        taken: 0,
      });
      expect(await use<ParticipantView>(agent, 'remove_participant', { signupId: signup.id, participantId: ana.id })).toEqual(removed);
      expect((await fails(agent, 'remove_participant', { signupId: signup.id, participantId: UNKNOWN_ID })).code).toBe('not_found');
    });

    it('close_signup closes it, and the public link takes no more registrations', async () => {
      expect(await use<SignupView>(agent, 'close_signup', { signupId: signup.id })).toMatchObject({ status: 'closed' });
      expect(
        (await fails(agent, 'register_participant', { signupId: signup.id, name: 'Late', email: 'late@example.com', selections: [] })).code,
      ).toBe('bad_request');
    });

    it('draft_signup_ai drafts from a description with a sandbox key, and refuses an empty one', async () => {
      const sandbox = await connect(tenant.key);
      const { draft } = await use<{ draft: { title: string; items: unknown[] } }>(sandbox, 'draft_signup_ai', {
        description: 'Bake sale next Saturday 9am-1pm at the school gym: 4 cakes, 2 dozen cookies',
      });
      expect(draft.items.length).toBeGreaterThan(0);
      expect((await fails(sandbox, 'draft_signup_ai', { description: '' })).errors).toEqual([
        { path: 'description', message: 'Must not be empty' },
      ]);
    });
  });

  describe('the waitlist tools', () => {
    let signup: SignupView;
    let slot: SlotView;
    type Line = { data: WaitlistedParticipantView[]; nextCursor: string | null };
    const register = (email: string) =>
      use<RegistrationResultView>(agent, 'register_participant', {
        signupId: signup.id,
        name: email,
        email,
        selections: [{ type: 'slot', id: slot.id }],
      });

    beforeAll(async () => {
      signup = await use<SignupView>(agent, 'create_signup', {
        title: 'MCP shift',
        eventDate: '2027-07-06T17:00:00Z',
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 60 },
      });
      slot = (await use<{ data: SlotView[] }>(agent, 'add_slots', { signupId: signup.id, slots: [{ title: 'Door', capacity: 1 }] }))
        .data[0]!;
      await use(agent, 'publish_signup', { signupId: signup.id });
    });

    it('create_signup takes the waitlist settings, update_signup changes the ones given', async () => {
      expect(signup.waitlist).toEqual({ enabled: true, mode: 'offer', offerMinutes: 60 });
      const updated = await use<SignupView>(agent, 'update_signup', { signupId: signup.id, waitlist: { offerMinutes: 120 } });
      expect(updated.waitlist).toEqual({ enabled: true, mode: 'offer', offerMinutes: 120 });
    });

    it('list_waitlist shows who waits in order; promote_from_waitlist is refused while no place is free, then accepts an offer', async () => {
      const first = await register('first@example.com');
      const second = await register('second@example.com');
      expect(second.waitlisted).toEqual([{ type: 'slot', id: slot.id, participantId: expect.any(String), position: 1 }]);
      const line = await use<Line>(agent, 'list_waitlist', { signupId: signup.id, type: 'slot', targetId: slot.id });
      expect(line.data.map((e) => [e.email, e.state, e.position])).toEqual([['second@example.com', 'waiting', 1]]);
      const entryId = line.data[0]!.id;
      expect(await fails(agent, 'promote_from_waitlist', { signupId: signup.id, entryId })).toMatchObject({
        code: 'conflict',
        status: 409,
      });
      await use(agent, 'remove_participant', { signupId: signup.id, participantId: first.confirmed[0]!.participantId });
      const offered = await use<Line>(agent, 'list_waitlist', { signupId: signup.id });
      expect(offered.data.map((e) => [e.id, e.state, e.position])).toEqual([[entryId, 'offered', null]]);
      const promoted = await use<ParticipantView>(agent, 'promote_from_waitlist', { signupId: signup.id, entryId: entryId.toUpperCase() });
      expect(promoted).toMatchObject({ email: 'second@example.com', status: 'confirmed', selections: [{ id: slot.id }], waitlist: [] });
      expect((await use<Line>(agent, 'list_waitlist', { signupId: signup.id })).data).toEqual([]);
      const confirmed = await use<{ data: ParticipantView[] }>(agent, 'list_participants', { signupId: signup.id, status: 'confirmed' });
      expect(confirmed.data.map((p) => p.email)).toEqual(['second@example.com']);
      expect((await fails(agent, 'list_participants', { signupId: signup.id, status: 'gone' })).errors).toEqual([
        { path: 'status', message: expect.any(String) },
      ]);
    });

    it('remove_from_waitlist takes someone out of the line, and a second removal is not_found', async () => {
      await register('third@example.com');
      const [entry] = (await use<Line>(agent, 'list_waitlist', { signupId: signup.id })).data;
      expect(entry).toMatchObject({ email: 'third@example.com', position: 1 });
      const removed = await use<ParticipantView>(agent, 'remove_from_waitlist', { signupId: signup.id, entryId: entry!.id });
      expect(removed).toMatchObject({ email: 'third@example.com', status: 'cancelled', waitlist: [] });
      expect((await fails(agent, 'remove_from_waitlist', { signupId: signup.id, entryId: entry!.id })).code).toBe('not_found');
      expect((await fails(agent, 'list_waitlist', { signupId: signup.id, type: 'queue' })).errors).toEqual([
        { path: 'type', message: expect.any(String) },
      ]);
    });

    it('lets a participants:read key list the waitlist but not promote or remove', async () => {
      const reader = await connect((await tenant.newKey({ mode: 'live', scopes: 'participants:read' })).key);
      expect((await use<Line>(reader, 'list_waitlist', { signupId: signup.id })).data).toEqual([]);
      for (const name of ['promote_from_waitlist', 'remove_from_waitlist']) {
        expect(await fails(reader, name, { signupId: signup.id, entryId: UNKNOWN_ID })).toMatchObject({
          code: 'scope_required',
          detail: 'This operation requires the scope "participants:write".',
        });
      }
    });
  });

  describe('metrics', () => {
    it('counts tool calls by tool and outcome', async () => {
      const metrics = await fetch(`${stackInfo().internalUrls['mcp-server']}/metrics`).then((res) => res.text());
      const count = (labels: string) =>
        Number(new RegExp(`^mcp_tool_calls_total\\{${labels},app="mcp-server"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
      expect(count('tool="whoami",outcome="ok"')).toBeGreaterThan(0);
      expect(count('tool="create_signup",outcome="validation_failed"')).toBeGreaterThan(0);
      expect(count('tool="add_slots",outcome="not_found"')).toBeGreaterThan(0);
    });
  });

  describe('the rules of the REST API', () => {
    it("refuses another organization's signup with forbidden, as a tool error", async () => {
      const other = await newTenant('pro');
      const theirs = await call<SignupView>('/signups', { key: other.key, body: { title: 'Theirs', eventDate: '2027-07-04T17:00:00Z' } });
      await call(`/signups/${theirs.body.id}/publish`, { key: other.key, method: 'POST' });
      const problem = await fails(await connect(tenant.key), 'list_participants', { signupId: theirs.body.id });
      expect(problem).toMatchObject({ code: 'forbidden', status: 403 });
    });

    it('answers send_reminder on the free tier with upgrade_required and its cause', async () => {
      const free = await newTenant('free');
      const created = await call<SignupView>('/signups', { key: free.key, body: { title: 'Free', eventDate: '2027-07-05T17:00:00Z' } });
      await call(`/signups/${created.body.id}/publish`, { key: free.key, method: 'POST' });
      const problem = await fails(await connect(free.key), 'send_reminder', { signupId: created.body.id });
      expect(problem).toMatchObject({
        code: 'upgrade_required',
        status: 402,
        cause: { kind: 'feature', currentTier: 'free', requiredTier: 'pro' },
      });
    });
  });

  describe('scopes', () => {
    it('answers a tool whose scope was not granted with scope_required naming it, as a tool error', async () => {
      const config = await registerPublicClient(callback.redirectUri);
      const narrow = await connectApp(browser, config, {
        redirectUri: callback.redirectUri,
        email: tenant.user.email,
        scope: 'signups:read',
        resource: mcpUrl(),
      });
      const reader = await connect(narrow.access_token);
      expect((await use<{ data: unknown[] }>(reader, 'list_signups')).data).toEqual(expect.any(Array));
      const problem = await fails(reader, 'create_signup', { title: 'x', eventDate: '2027-07-01T17:00:00Z' });
      expect(problem).toMatchObject({ code: 'scope_required', status: 403, detail: 'This operation requires the scope "signups:write".' });
    });

    it.each([
      ['list_signups', 'signups:read'],
      ['get_signup', 'signups:read'],
      ['get_signup_analytics', 'analytics:read'],
      ['create_signup', 'signups:write'],
      ['update_signup', 'signups:write'],
      ['publish_signup', 'signups:write'],
      ['close_signup', 'signups:write'],
      ['duplicate_signup', 'signups:write'],
      ['publish_series', 'signups:write'],
      ['close_series', 'signups:write'],
      ['add_slots', 'signups:write'],
      ['update_slot', 'signups:write'],
      ['add_items', 'signups:write'],
      ['update_item', 'signups:write'],
      ['list_participants', 'participants:read'],
      ['remove_participant', 'participants:write'],
      ['list_waitlist', 'participants:read'],
      ['promote_from_waitlist', 'participants:write'],
      ['remove_from_waitlist', 'participants:write'],
      ['check_in_participant', 'participants:write'],
      ['mark_no_show', 'participants:write'],
      ['get_attendance', 'participants:read'],
      ['draft_signup_ai', 'ai:draft'],
      ['send_reminder', 'reminders:send'],
    ])('%s needs %s, as its REST twin does', async (name, scope) => {
      const key = await tenant.newKey({ scopes: 'register:write' });
      const problem = await fails(await connect(key.key), name, {});
      expect(problem).toMatchObject({ code: 'scope_required', detail: expect.stringContaining(`"${scope}"`) });
    });

    it('lets whoami and register_participant run with any scope, and register_self with register:write alone', async () => {
      const { signup } = await call<SignupView>('/signups', {
        key: tenant.key,
        body: { title: 'Open', eventDate: '2027-07-03T17:00:00Z' },
      }).then(async (res) => ({
        signup: (await call<SignupView>(`/signups/${res.body.id}/publish`, { key: tenant.key, method: 'POST' })).body,
      }));
      const registrant = await connect((await tenant.newKey({ scopes: 'register:write' })).key);
      expect(await use<MeView>(registrant, 'whoami')).toMatchObject({ scopes: ['register:write'] });
      expect(await use(registrant, 'register_self', { signupId: signup.id, selections: [] })).toMatchObject({ success: true });
      const reader = await connect((await tenant.newKey({ scopes: 'signups:read' })).key);
      expect(
        await use(reader, 'register_participant', { signupId: signup.id, name: 'Cy', email: 'cy@example.com', selections: [] }),
      ).toMatchObject({ success: true });
      expect((await fails(reader, 'register_self', { signupId: signup.id, selections: [] })).code).toBe('scope_required');
    });
  });

  describe('rate limits', () => {
    let gateway: ExtraGateway;
    let mcp: AppProcess;

    beforeAll(async () => {
      const shared = {
        ...DEFAULT_LIMITS_ENV,
        TIER_LIMITS: '{"free":{"requestsPerMinute":6}}',
        RATE_LIMIT_PREFIX: `mcp-shared-${randomUUID()}`,
      };
      [gateway, mcp] = await Promise.all([startGateway(shared), startAppProcess('mcp-server', { ...stackInfo().env, ...shared })]);
    });

    afterAll(async () => {
      await Promise.all([gateway?.stop(), mcp?.stop()]);
    });

    it('counts REST and MCP calls of one credential against the same budget', async () => {
      const { key } = await newTenant('free');
      const url = `${mcp.origin}/mcp`;
      for (let i = 0; i < 3; i++) expect((await gateway.call('/me', { key })).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await rpc(url, key, 'tools/list')).status).toBe(200);
      const refused = await rpc(url, key, 'tools/call', { name: 'whoami', arguments: {} });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await gateway.call('/me', { key })).status).toBe(429);
      const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
      await expect(client.connect(transport)).rejects.toMatchObject({ code: 429 });
      const metrics = await fetch(`${mcp.origin}/metrics`).then((res) => res.text());
      expect(metrics).toMatch(/^rate_limit_rejections_total\{policy="credential",app="mcp-server"\} [1-9]\d*$/m);
    });
  });
});
