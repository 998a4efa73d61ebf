import { type HandlersOf, JsonAnswer, type ServiceName, type Subject, subjectsOf } from '#libs/contracts';
import { asProblem, ProblemError, type WireProblem } from '#libs/problem';

/** What travels back on a reply. */
export type ReplyEnvelope = { ok: true; data: unknown } | { ok: false; problem: WireProblem };

export interface BusLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

/** Boot-time check: exactly the owner's subjects, each with one handler. */
export function checkHandlers<O extends ServiceName>(owner: O, handlers: HandlersOf<O>): void {
  const expected = new Set<string>(subjectsOf(owner));
  const given = Object.keys(handlers);
  const missing = [...expected].filter((s) => !given.includes(s));
  const extra = given.filter((s) => !expected.has(s));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`Handlers of "${owner}" do not match its subjects: missing [${missing.join(', ')}], unknown [${extra.join(', ')}]`);
  }
}

/** Runs one handler and turns its outcome into a reply; unexpected failures are logged, never leaked. */
export async function dispatch(
  handler: (req: never) => Promise<unknown>,
  subject: Subject,
  payload: unknown,
  logger: BusLogger,
): Promise<ReplyEnvelope> {
  try {
    return { ok: true, data: await handler(payload as never) };
  } catch (err) {
    if (!(err instanceof ProblemError)) logger.error({ err, subject }, 'bus handler failed');
    return { ok: false, problem: asProblem(err).toWire() };
  }
}

/** How every ok reply's text starts: JSON.stringify of `{ ok: true, data }`, members in that order. */
const OK_PREFIX = '{"ok":true,"data":';

/** The JSON text of a reply; the text of a JsonAnswer goes in as it is, never parsed. */
export function replyText(reply: ReplyEnvelope): string {
  return reply.ok && reply.data instanceof JsonAnswer ? `${OK_PREFIX}${reply.data.text}}` : JSON.stringify(reply);
}

/**
 * The data of a reply's JSON text, as text: cut out of an ok reply without parsing it; any other
 * reply is parsed, and its problem thrown as ProblemError. undefined when the text is no reply.
 */
export function replyDataText(text: string): string | undefined {
  if (text.startsWith(OK_PREFIX) && text.endsWith('}')) return text.slice(OK_PREFIX.length, -1);
  let envelope: ReplyEnvelope;
  try {
    envelope = JSON.parse(text) as ReplyEnvelope;
  } catch {
    return undefined;
  }
  if (typeof envelope !== 'object' || envelope === null) return undefined;
  return JSON.stringify(unwrapReply(envelope) ?? null);
}

/** The reply's data, or the problem it carries thrown as ProblemError. */
export function unwrapReply<T>(reply: ReplyEnvelope): T {
  if (reply.ok) return reply.data as T;
  throw ProblemError.fromWire(reply.problem);
}

export function timeoutProblem(subject: string, ms: number): ProblemError {
  return new ProblemError('internal_error', `The ${subject.split('.')[0]} service did not answer within ${ms} ms.`);
}

export function malformedReply(subject: string): ProblemError {
  return new ProblemError('internal_error', `The ${subject.split('.')[0]} service sent a malformed reply.`);
}

export function noResponderProblem(subject: string): ProblemError {
  return new ProblemError('internal_error', `The ${subject.split('.')[0]} service is not available.`);
}
