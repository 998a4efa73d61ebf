import nx from '@nx/eslint-plugin';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:app', 'type:lib'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
];

const boundaries = (allow) => ['error', { enforceBuildableLibDependency: false, allow, depConstraints }];

export default [
  { ignores: ['dist/**', 'node_modules/**', '.nx/**', 'coverage/**', 'data/**', 'tmp/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@nx/enforce-module-boundaries': boundaries([]),
    },
  },
  {
    // One import order, in one block: side effects, Node's own modules, packages, #libs and #apps, relative paths.
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': ['error', { groups: [['^\\u0000', '^node:', '^@?\\w', '^#', '^\\.']] }] },
  },
  {
    // The client's examples import it by its package name, as an integrator's code does (the README shows them).
    files: ['libs/client/examples/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // The launcher is the one project that composes apps (both run modes boot them).
    files: ['tools/launcher/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['#apps/*']) },
  },
  {
    // The auth-server's specs of account email boot the reminders-service that mails it (no stub of our own code).
    files: ['apps/auth-server/src/**/*.integration-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['#apps/reminders-service']) },
  },
  {
    // The reminders-service's spec of participant email boots the apps its messages come from: the
    // signups-service (events, message contexts) and the auth-server (the organization's name).
    files: ['apps/reminders-service/src/**/*.integration-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['#apps/signups-service', '#apps/auth-server']) },
  },
];
