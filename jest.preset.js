/** Shared jest settings: ES modules compiled by swc, `#libs/*` mapped to lib sources. */
const swc = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export function jestConfig(projectRoot, overrides = {}) {
  return {
    displayName: projectRoot,
    rootDir: '.',
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    transform: { '^.+\\.ts$': ['@swc/jest', swc] },
    moduleNameMapper: {
      '^#libs/([a-z-]+)$': '<rootDir>/../../libs/$1/src/index.ts',
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.integration-spec.ts'],
    testTimeout: 30000,
    ...overrides,
  };
}
