import { jestConfig } from '../jest.preset.js';

/** One stack in services mode for every e2e file (started once, in globalSetup). */
export default {
  ...jestConfig('e2e'),
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/all-in-one\\.e2e-spec\\.ts$'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
