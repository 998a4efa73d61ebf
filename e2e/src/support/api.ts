import type { Tier } from '#libs/config';
import type { CreatedApiKey, OrganizationView, UserView } from '#libs/contracts';
import { fetchAnswered } from './fetch-answered.js';
import { stackInfo } from './stack-env.js';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  key?: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls the REST API (path relative to {base_url}) and reads the JSON answer, if any. */
export async function call<T = Record<string, unknown>>(path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  return request<T>(`${stackInfo().baseUrl}${path}`, options);
}

/** Calls a URL and reads the JSON answer, if any; sent again when the connection broke before an answer (fetchAnswered). */
export async function request<T = Record<string, unknown>>(url: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const init = {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  };
  const res = await fetchAnswered(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

async function admin<T>(path: string, body?: unknown, method = 'POST'): Promise<T> {
  const { authUrl, adminToken } = stackInfo();
  const res = await request<T>(`${authUrl}/admin/${path}`, { method, body, headers: { authorization: `Bearer ${adminToken}` } });
  if (res.status >= 300) throw new Error(`admin ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface Tenant {
  organization: OrganizationView;
  user: UserView;
  /** A sandbox key with every scope. */
  key: string;
  keyId: string;
  newKey(options?: { mode?: 'test' | 'live'; scopes?: string }): Promise<CreatedApiKey>;
}

let counter = 0;

/** A fresh organization with an owner and a sandbox key holding every scope. */
export async function newTenant(tier: Tier = 'pro'): Promise<Tenant> {
  const organization = await admin<OrganizationView>('organizations', { name: `E2E org ${++counter} ${Date.now()}`, tier });
  const user = await admin<UserView>('users', {
    email: `owner-${organization.id.toLowerCase()}@example.com`,
    password: 'correct horse battery staple',
    organizationId: organization.id,
  });
  const newKey = (options: { mode?: 'test' | 'live'; scopes?: string } = {}) =>
    admin<CreatedApiKey>('api-keys', {
      organizationId: organization.id,
      mode: options.mode ?? 'test',
      ...(options.scopes !== undefined && { scopes: options.scopes }),
    });
  const key = await newKey();
  return { organization, user, key: key.key, keyId: key.id, newKey };
}

/** Another user of the tenant's organization, with the tenant owner's password. */
export function addUser(tenant: Tenant, role: 'owner' | 'admin' | 'member'): Promise<UserView> {
  return admin<UserView>('users', {
    email: `${role}-${Date.now()}-${++counter}@example.com`,
    password: 'correct horse battery staple',
    organizationId: tenant.organization.id,
    role,
  });
}

export function revokeKey(id: string): Promise<unknown> {
  return admin(`api-keys/${id}/revoke`);
}

export function setTier(organizationId: string, tier: Tier): Promise<OrganizationView> {
  return admin<OrganizationView>(`organizations/${organizationId}`, { tier }, 'PATCH');
}

export function setTimeZone(organizationId: string, timeZone: string): Promise<OrganizationView> {
  return admin<OrganizationView>(`organizations/${organizationId}`, { timeZone }, 'PATCH');
}

export const signupBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Neighbourhood potluck',
  eventDate: '2027-06-01T18:00:00.000Z',
  ...overrides,
});
