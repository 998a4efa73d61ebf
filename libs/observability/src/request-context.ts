import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'x-request-id';

const REQUEST_ID_MAX_LENGTH = 128;
const REQUEST_ID = /^[A-Za-z0-9._:-]+$/;

/** A caller's request id when it is safe to echo (1-128 characters of `[A-Za-z0-9._:-]`), else a new one. */
export function acceptRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && incoming.length <= REQUEST_ID_MAX_LENGTH && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
