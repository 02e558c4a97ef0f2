import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

const readFile = (path: string) => ({ name: 'read_file', arguments: { path } });

/** The sandboxed file reader: outside the sandbox, a missing file, then the right one. */
export const readFileScenario: Scenario = {
  name: 'read-file',
  title: 'Files: permission_denied outside the sandbox, not_found, then the README',
  task: 'How is this project deployed? Look in its files.',
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the deployment instructions',
        approaches: [readFile('../../etc/hosts'), readFile('DEPLOY.md'), readFile('README.md')],
        report: (output) =>
          `From ${(output as { path: string }).path}: ${(output as { text: string }).text.trim()}`,
      },
    ],
  },
};

/** The calculator: a malformed expression is `invalid_input`; the model fixes it. */
export const calculatorScenario: Scenario = {
  name: 'calculator',
  title: 'Calculator: invalid_input, then the corrected expression',
  task: 'What is 200 times 1.08?',
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the product',
        approaches: [
          { name: 'calculate', arguments: { expression: '200 x 1.08' } },
          { name: 'calculate', arguments: { expression: '200 * 1.08' } },
        ],
        report: (output) => `200 × 1.08 = ${(output as { value: number }).value}.`,
      },
    ],
  },
};

/** A question back to the user: `ask_user` is a terminating tool. */
export const askUserScenario: Scenario = {
  name: 'ask-user',
  title: 'Ask the user: a terminating tool hands the turn back',
  task: 'Book me a table.',
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the details',
        approaches: [
          {
            name: 'ask_user',
            arguments: { question: 'Which restaurant, what time, and for how many?' },
          },
        ],
        report: () => '',
      },
    ],
  },
};
