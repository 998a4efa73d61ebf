import { jestConfig } from '../../jest.preset.js';

export default jestConfig('libs/bus', {
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.integration-spec.ts'],
  testTimeout: 30_000,
});
