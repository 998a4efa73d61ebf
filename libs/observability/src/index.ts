export { REQUEST_ID_HEADER, acceptRequestId, currentRequestId, runWithRequestId, type RequestContext } from './request-context.js';
export { REDACTED_PATHS, createLogger, type Logger } from './logger.js';
export { Metrics } from './metrics.js';
export { checkReadiness, type HealthIndicator, type ReadinessReport } from './health.js';
export { installHttpObservability, requestIdOptions } from './http-hooks.js';
