import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

/** Which of our projects may import which: core stands alone, the app sees only public entry points. */
const depConstraints = [
  {
    sourceTag: 'scope:core',
    onlyDependOnLibsWithTags: ['scope:core'],
    bannedExternalImports: ['@nestjs/*'],
  },
  { sourceTag: 'scope:nest', onlyDependOnLibsWithTags: ['scope:core'] },
  { sourceTag: 'scope:chaos', onlyDependOnLibsWithTags: ['scope:core', 'scope:nest'] },
  {
    sourceTag: 'scope:ai-sdk',
    onlyDependOnLibsWithTags: ['scope:core', 'scope:nest', 'scope:adapter-testing'],
  },
  {
    sourceTag: 'scope:openai-agents',
    onlyDependOnLibsWithTags: ['scope:core', 'scope:nest', 'scope:adapter-testing'],
  },
  {
    sourceTag: 'scope:langchain',
    onlyDependOnLibsWithTags: ['scope:core', 'scope:nest', 'scope:adapter-testing'],
  },
  {
    // ai-sdk for the spec that measures the AI SDK adapter inside a Mastra Agent
    sourceTag: 'scope:mastra',
    onlyDependOnLibsWithTags: ['scope:core', 'scope:nest', 'scope:adapter-testing', 'scope:ai-sdk'],
  },
  { sourceTag: 'scope:adapter-testing', onlyDependOnLibsWithTags: ['scope:core', 'scope:nest'] },
  { sourceTag: 'scope:mcp', onlyDependOnLibsWithTags: ['scope:core', 'scope:nest'] },
  { sourceTag: 'scope:redis', onlyDependOnLibsWithTags: ['scope:core', 'scope:nest'] },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: [
      'scope:core',
      'scope:nest',
      'scope:chaos',
      'scope:mcp',
      'scope:redis',
    ],
  },
  {
    sourceTag: 'type:tools',
    onlyDependOnLibsWithTags: [
      'scope:core',
      'scope:nest',
      'scope:chaos',
      'scope:ai-sdk',
      'scope:openai-agents',
      'scope:langchain',
      'scope:mcp',
      'scope:redis',
    ],
  },
];

/** Other packages are reached through their exports map, never their files. */
export const publicEntryPointsOnly = {
  group: ['@toolshield/*/src', '@toolshield/*/src/*', '@toolshield/*/dist', '@toolshield/*/dist/*'],
  message: 'Import a toolshield package through its public entry points (its exports map) only.',
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/out-tsc', '**/coverage', '**/reports', '**/.nx', '**/node_modules'],
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: true,
          allow: [],
          depConstraints,
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [publicEntryPointsOnly],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  prettier,
];
