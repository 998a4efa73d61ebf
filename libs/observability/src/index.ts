export { REQUEST_ID_HEADER, acceptRequestId, currentRequestId, runWithRequestId, type RequestContext } from './request-context.js';
export { SECRET_KEY, createLogger, redactSecrets, type Logger } from './logger.js';
export { Metrics, sharedRead, type Counter, type Gauge } from './metrics.js';
export { checkReadiness, type HealthIndicator, type ReadinessReport } from './health.js';
export { installHttpObservability, loggablePath, requestIdOptions } from './http-hooks.js';
export {
  SpanKind,
  contextFromHeaders,
  currentTraceId,
  failSpan,
  inSpan,
  runInContext,
  startTracing,
  traceContextHeaders,
  traceIdOf,
  type Span,
  type Tracing,
  type TracingConfig,
} from './tracing.js';
