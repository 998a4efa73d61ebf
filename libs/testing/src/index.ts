export { eventually } from './eventually.js';
export { createTestStack, type TestStack } from './test-infrastructure.js';
export { freePorts } from './ports.js';
export { describeAppOperations } from './app-operations.js';
