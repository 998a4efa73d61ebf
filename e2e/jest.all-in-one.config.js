import { jestConfig } from '../jest.preset.js';

/**
 * The `npm start` smoke test, run alone after the services-mode suite: `npm start` rebuilds
 * dist/, which the other e2e files execute from.
 */
export default {
  ...jestConfig('e2e'),
  rootDir: '.',
  testMatch: ['<rootDir>/src/all-in-one.e2e-spec.ts'],
  testTimeout: 120000,
};
