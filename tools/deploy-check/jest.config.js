import { jestConfig } from '../../jest.preset.js';

export default jestConfig('tools/deploy-check', {
  globalSetup: '<rootDir>/src/testing/global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/global-teardown.ts',
});
