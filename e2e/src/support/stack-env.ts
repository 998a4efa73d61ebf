import type { ServicesStackInfo } from '#libs/testing';

/** What the global setup tells every e2e file about the running stack. */
export interface StackInfo extends ServicesStackInfo {
  /** The stack's OpenTelemetry collector: GET {collectorUrl}/spans?traceId=… lists one trace's spans. */
  collectorUrl: string;
}

/** Set by the global setup (which cannot import this file's values). */
export const STACK_ENV = 'E2E_STACK';

export function stackInfo(): StackInfo {
  const raw = process.env[STACK_ENV];
  if (!raw) throw new Error('The e2e stack is not running (global setup did not run)');
  return JSON.parse(raw) as StackInfo;
}
