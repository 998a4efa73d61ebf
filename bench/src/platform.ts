import type { ServicesStackInfo } from '#libs/testing';

export interface CallOptions {
  key?: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The status that counts as success (201 for a POST, 200 otherwise). */
  expect?: number;
}

/** The running stack's REST API and admin API, failing loudly on any unexpected answer (seeding must not go wrong quietly). */
export class Platform {
  constructor(readonly info: Pick<ServicesStackInfo, 'baseUrl' | 'gatewayUrl' | 'authUrl' | 'adminToken'>) {}

  call<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.send<T>(`${this.info.baseUrl}${path}`, options);
  }

  admin<T>(path: string, body: unknown, method = 'POST'): Promise<T> {
    return this.send<T>(`${this.info.authUrl}/admin/${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${this.info.adminToken}` },
      expect: method === 'POST' ? 201 : 200,
    });
  }

  private async send<T>(url: string, options: CallOptions): Promise<T> {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    const expected = options.expect ?? (method === 'POST' ? 201 : 200);
    if (res.status !== expected) throw new Error(`${method} ${url}: expected ${expected}, got ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
