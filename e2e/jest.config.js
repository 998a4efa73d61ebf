import { jestConfig } from '../jest.preset.js';

const base = jestConfig('e2e');

/** One stack in services mode for every e2e file (started once, in globalSetup). */
export default {
  ...base,
  rootDir: '.',
  // The client's example (libs/client/examples) imports the client by its package name: the built one, as the e2e uses it.
  moduleNameMapper: { '^@signup-platform/client$': '<rootDir>/../dist/libs/client/src/index.js', ...base.moduleNameMapper },
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/all-in-one\\.e2e-spec\\.ts$'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
