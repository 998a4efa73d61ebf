import { type Logger, type LoggerOptions, pino } from 'pino';
import { currentRequestId } from './request-context.js';
import { currentTraceId } from './tracing.js';

export type { Logger };

/** Keys whose values never reach a log line, at any depth, whatever their case. */
export const SECRET_KEY =
  /^(authorization|cookie|set-cookie|password|passwd|secret|token|key|apikey|api_key|keyhash|access_token|refresh_token|id_token|client_secret|code_verifier|confirmationtoken|signingsecret|admintoken|x-twilio-signature)$/i;

const MAX_DEPTH = 8;

/** A copy of a log object with every secret-named value replaced; errors, dates and the like kept as they are. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? '[redacted]' : redactSecrets(item, depth + 1)]),
  );
}

/** Error fields that carry the data a failed statement was given (names, e-mails, phones): never logged. */
const ERROR_DATA_FIELDS = ['query', 'parameters', 'driverError', 'parameterValues', 'detail', 'where'] as const;

/** pino's error serializer without the statement text, its bound values, and Postgres's detail and where (which quote row values). */
export function serializeError(err: unknown): unknown {
  const serialized = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  for (const field of ERROR_DATA_FIELDS) delete serialized[field];
  return serialized;
}

/**
 * JSON logs with redaction and the current request id and trace id on every line, to stdout
 * unless another destination is given. Stdout is written asynchronously: lines that come while
 * a write is under way go out together in the next, instead of a blocking write per line (one
 * system call per request was a measurable part of a request's cost); what is left is written
 * synchronously when the process exits.
 */
export function createLogger(app: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { app },
    serializers: { err: serializeError },
    formatters: { log: (object) => redactSecrets(object) as Record<string, unknown> },
    mixin() {
      const requestId = currentRequestId();
      const traceId = currentTraceId();
      return { ...(requestId && { requestId }), ...(traceId && { traceId }) };
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
