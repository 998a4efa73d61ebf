export { eventually } from './eventually.js';
export { createTestStack, type TestStack, type TestStackOptions } from './test-infrastructure.js';
export { freePorts, localStack, type LocalStack } from './ports.js';
export { describeAppOperations } from './app-operations.js';
export { RELAXED_LIMITS_ENV } from './limits.js';
export { startReceiver, verifyWebhook, type Answer, type Receiver, type Received } from './webhook-receiver.js';
export { problemOf } from './problems.js';
export { startFakeTwilio, type FakeTwilio, type FakeTwilioMessage, type FakeTwilioMode } from './fake-twilio.js';
export { startFakeCollector, type FakeCollector, type ReceivedSpan } from './fake-collector.js';
