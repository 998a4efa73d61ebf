import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ProblemError } from '#libs/problem';

/**
 * How deeply a JSON body may nest. A request needs a handful of levels (an MCP message with a
 * tool's arguments and a list of slots: 6), while code that walks a value recursively
 * (class-transformer) runs out of stack at a few thousand, which fits in 4 KB of brackets.
 */
export const MAX_JSON_DEPTH = 32;

/** JSON text is UTF-8 (RFC 8259); other bytes are refused rather than read as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function unreadable(message: string, detail: string): ProblemError {
  return ProblemError.validation([{ path: 'body', message }], detail);
}

/** Whether the JSON text opens more than `max` objects or arrays inside each other (brackets in strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether a parsed value holds a `__proto__` key, or a `constructor` object with a `prototype`:
 * copied with Object.assign or a deep merge, they would reach an object's prototype. The value
 * is at most MAX_JSON_DEPTH deep, so recursion is safe.
 */
function poisoned(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(poisoned);
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, '__proto__')) return true;
  const ctor = record.constructor;
  if (Object.hasOwn(record, 'constructor') && typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return true;
  return Object.values(record).some(poisoned);
}

/**
 * Reads a JSON request body, or throws a 422 on `body` saying why it cannot be read: bytes that
 * are not UTF-8, nesting deeper than MAX_JSON_DEPTH (checked on the text, before anything
 * recursive sees it), malformed JSON (an empty body too), or a prototype-polluting key.
 */
export function readJsonBody(body: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw unreadable('Must be valid UTF-8', 'The request body is not valid UTF-8.');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw unreadable(`Nested too deeply: at most ${MAX_JSON_DEPTH} levels`, 'The request body nests objects or arrays too deeply.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unreadable('Malformed JSON', 'The request body is not valid JSON.');
  }
  if (poisoned(parsed)) {
    throw unreadable(
      'Must not contain __proto__ or constructor.prototype',
      'The request body holds a key that would reach an object prototype.',
    );
  }
  return parsed;
}

/** Every app reads JSON bodies with readJsonBody (Fastify's own parser has no depth limit). */
export function useJsonBodyReader(app: NestFastifyApplication): void {
  app.useBodyParser('application/json', {}, (_request, body, done) => {
    try {
      done(null, readJsonBody(body));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
