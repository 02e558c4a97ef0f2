import root, { publicEntryPointsOnly } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The option validator is the layer the rest of core builds on: a rule sits beside the
    // options it checks and imports the validator, never the other way (ADR 0006, amendment 1).
    files: ['src/options/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            publicEntryPointsOnly,
            {
              group: ['../*'],
              message:
                'The option validator imports nothing above it: put a rule beside the options interface it checks.',
            },
          ],
        },
      ],
    },
  },
];
