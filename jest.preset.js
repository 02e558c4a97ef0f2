import { basename } from 'node:path';

/**
 * How the workspace's TypeScript is transformed for tests (legacy decorators and decorator
 * metadata, ES modules); also used by spec fixtures that run sources in a child process.
 *
 * @type {import('@swc/core').Options}
 */
export const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

/**
 * Shared Jest 30 configuration for every project: native ESM (run Jest with
 * `node --experimental-vm-modules`), TypeScript through @swc/jest with legacy
 * decorators and decorator metadata (ValidationPipe needs `design:paramtypes`),
 * and the workspace's source export condition so a project's tests import sibling
 * packages from source without building them.
 *
 * @param {string} rootDir the project's folder
 * @returns {import('jest').Config}
 */
export function createJestConfig(rootDir) {
  return {
    displayName: basename(rootDir),
    rootDir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    testEnvironmentOptions: {
      customExportConditions: ['@toolshield/source', 'node', 'node-addons'],
    },
    transform: {
      '^.+\\.ts$': ['@swc/jest', SWC_OPTIONS],
    },
    restoreMocks: true,
    // Time is virtual in the specs; what a test waits for in real time is module loading and
    // the first Nest bootstrap, which on a busy two-core machine can pass Jest's default 5 s.
    testTimeout: 30_000,
  };
}
