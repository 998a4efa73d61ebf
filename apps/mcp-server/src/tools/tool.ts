import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Bus } from '#libs/bus';
import type { EdgeSubject, MeView, Principal, RequestOf, ResponseOf } from '#libs/contracts';
import type { Scope } from '#libs/scopes';

/** What a tool runs with: the bus to the services and the verified caller (never their token). */
export interface ToolContext {
  bus: Bus;
  principal: Principal;
  /** The origin of the public pages, where a participant manages a registration (/r/{confirmationToken}). */
  publicOrigin: string;
}

/**
 * What a tool's run gets: the caller, the request of its own subject (whose deadline the bus
 * applies) and no other, and the caller's own account (auth.me, which any credential may read).
 */
export interface ToolRun<S extends EdgeSubject> extends Omit<ToolContext, 'bus'> {
  request(payload: RequestOf<S>): Promise<ResponseOf<S>>;
  me(): Promise<MeView>;
}

/** How a tool changes the world, as MCP annotations say it (every hint given, none left to defaults). */
export type ToolHints = Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

/** A DTO or view class whose decorators give both validation and JSON Schema. */
type Described<T extends object> = new () => T;

/**
 * One MCP tool: its arguments validated against a DTO (the REST body's own, with the ids the
 * REST path carries), then the request of its subject as the gateway makes it.
 */
export interface ToolDefinition<S extends EdgeSubject = EdgeSubject, A extends object = object, R extends object = object> {
  name: string;
  title: string;
  /** Written for an agent: what it does, when to use it, what comes back, what to do next. */
  description: string;
  /** The subject the tool asks, that of its REST twin: its catalog entry says what the caller needs (scope, credential kinds). */
  subject: S;
  /** Any one of these scopes, needed besides: register_self registers the caller themself. */
  oneOfScopes?: readonly Scope[];
  input: Described<A>;
  output: Described<R>;
  hints: ToolHints;
  run(args: A, context: ToolRun<S>): Promise<R>;
  /** The text of a success, before the result's JSON (the register tools put the confirmation token first). */
  lead?(result: R, context: ToolContext): string;
}

/** Checks a definition against its own argument and result types, then erases them for the catalog. */
export function defineTool<S extends EdgeSubject, A extends object, R extends object>(definition: ToolDefinition<S, A, R>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

export const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const ADD: ToolHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Overwrites what it names, and the same call twice leaves the same state. */
export const CHANGE: ToolHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
