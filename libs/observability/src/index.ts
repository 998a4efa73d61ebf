export { REQUEST_ID_HEADER, acceptRequestId, currentRequestId, runWithRequestId, type RequestContext } from './request-context.js';
export { SECRET_KEY, createLogger, redactSecrets, type Logger } from './logger.js';
export { Metrics, type Counter } from './metrics.js';
export { checkReadiness, type HealthIndicator, type ReadinessReport } from './health.js';
export { installHttpObservability, loggablePath, requestIdOptions } from './http-hooks.js';
