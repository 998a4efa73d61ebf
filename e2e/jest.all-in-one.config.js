import { jestConfig } from '../jest.preset.js';

const base = jestConfig('e2e');

/**
 * The `npm start` smoke test, run alone after the services-mode suite: `npm start` rebuilds
 * dist/, which the other e2e files execute from.
 */
export default {
  ...base,
  rootDir: '.',
  // The client's example (libs/client/examples) imports the client by its package name: the built one.
  moduleNameMapper: { '^@signup-platform/client$': '<rootDir>/../dist/libs/client/src/index.js', ...base.moduleNameMapper },
  testMatch: ['<rootDir>/src/all-in-one.e2e-spec.ts'],
  testTimeout: 240000,
};
