export {
  TargetRefused,
  checkTarget,
  checkUrlForm,
  defaultResolve,
  isForbiddenAddress,
  type Resolver,
  type TargetPolicy,
} from './target-policy.js';
export { closeWebhookConnections, parseRetryAfter, postWebhook, type PostWebhookOptions, type SendResult } from './webhook-sender.js';
