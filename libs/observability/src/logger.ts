import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId } from './request-context.js';

export type { Logger };

/** Paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'authorization', '*.authorization', 'headers.authorization', 'req.headers.authorization', 'req.headers.cookie',
  'password', '*.password', 'key', '*.key', 'token', '*.token', 'secret', '*.secret', 'signingSecret', '*.signingSecret',
  'confirmationToken', '*.confirmationToken', 'access_token', '*.access_token', 'refresh_token', '*.refresh_token',
  'client_secret', '*.client_secret', 'code_verifier', '*.code_verifier', 'adminToken', '*.adminToken',
];

/** JSON logs with redaction and the current request id on every line. */
export function createLogger(app: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
