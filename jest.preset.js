import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));

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

/**
 * ES-module-only packages that CommonJS dependencies require(). Node allows that; jest's
 * module loader does not, so jest gets them compiled to CommonJS.
 */
const REQUIRED_ESM = ['content-disposition'];

export function jestConfig(projectRoot, overrides = {}) {
  return {
    displayName: projectRoot,
    rootDir: '.',
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    transform: {
      '^.+\\.ts$': ['@swc/jest', swc],
      [`node_modules/(${REQUIRED_ESM.join('|')})/.+\\.js$`]: ['@swc/jest', { swcrc: false, module: { type: 'commonjs' } }],
    },
    transformIgnorePatterns: [`/node_modules/(?!(${REQUIRED_ESM.join('|')})/)`],
    moduleNameMapper: {
      // The ES build imports its metadata JSON without an import attribute, which jest warns about
      // at every import; the CommonJS build is the same code.
      '^libphonenumber-js(/max)?$': `${ROOT}/node_modules/libphonenumber-js$1/index.cjs`,
      '^#libs/([a-z-]+)$': `${ROOT}/libs/$1/src/index.ts`,
      '^#apps/([a-z-]+)$': `${ROOT}/apps/$1/src/index.ts`,
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.integration-spec.ts'],
    testTimeout: 30000,
    ...overrides,
  };
}
