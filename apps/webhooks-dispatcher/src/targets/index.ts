export { isForbiddenAddress } from './special-addresses.js';
export { TargetRefused, checkTarget, checkUrlForm, defaultResolve, type Resolver, type TargetPolicy } from './target-policy.js';
export {
  closeWebhookConnections,
  errorMessageOf,
  isSuccess,
  parseRetryAfter,
  postWebhook,
  type PostWebhookOptions,
  type SendResult,
} from './webhook-sender.js';
