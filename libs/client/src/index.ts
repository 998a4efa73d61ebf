export { type ApiResponse, type ClientOptions, createClient, DEFAULT_RETRY, SignupClient } from './client.js';
export {
  type AnyProblemError,
  isProblem,
  type ProblemBody,
  ProblemError,
  retryAfterSeconds,
  UnexpectedPageError,
  UnexpectedResponseError,
} from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export type {
  AnswerOf,
  ApiPaths,
  BodyOf,
  CallOptions,
  FieldError,
  HttpMethod,
  ItemOf,
  ListPaths,
  OperationOf,
  OptionsOf,
  PathsWith,
  ProblemCode,
  RetryPolicy,
} from './types.js';
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventResource,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
  WebhookVerifier,
} from './webhooks.js';
