import { createJestConfig } from '../../jest.preset.js';

const base = createJestConfig(import.meta.dirname);

/**
 * Two runs: every spec as written (tools without enhancers of their own take the direct
 * lane), then the behaviour specs again with every tool forced onto Nest's pipeline
 * (`test/fixtures/nest-lane.setup.ts`), so both lanes are held to the same expectations.
 */
export default {
  projects: [
    base,
    {
      ...base,
      displayName: 'nest (Nest lane)',
      testMatch: [
        '<rootDir>/test/policies/**/*.spec.ts',
        '<rootDir>/test/executor*.spec.ts',
        '<rootDir>/test/error-sources.spec.ts',
        '<rootDir>/test/agent/**/*.spec.ts',
        '<rootDir>/test/registration/**/*.spec.ts',
      ],
      setupFiles: ['<rootDir>/test/fixtures/nest-lane.setup.ts'],
    },
  ],
};
