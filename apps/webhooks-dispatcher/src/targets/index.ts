export { isForbiddenAddress } from './special-addresses.js';
export {
  TargetRefused,
  checkTarget,
  checkUrlForm,
  defaultResolve,
  type Resolver,
  type TargetPolicy,
} from './target-policy.js';
export { closeWebhookConnections, parseRetryAfter, postWebhook, type PostWebhookOptions, type SendResult } from './webhook-sender.js';
