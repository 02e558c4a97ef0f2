import { describe, expect, it } from '@jest/globals';
import { createToolError } from '../classification/create-tool-error.js';
import { TOOL_ERROR_TYPES } from '../errors/tool-error-type.js';
import type { ToolErrorOptions } from '../errors/tool-error.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { renderFailureText } from './render-failure-text.js';

/** A next step that tells the model not to make the call again. */
const FORBIDS_A_REPEAT = /do not (repeat|retry)/i;
/** A line that tells the model calling again is pointless, or may act twice. */
const SAYS_NOT_RECOVERABLE = /Retrying will not help\.|It may have taken effect\./;

const ERROR_OPTIONS: readonly ToolErrorOptions[] = [
  {},
  { retryable: false },
  { retryable: true },
  { recoverable: false },
  { recoverable: true },
  { retryAfterMs: 2_000 },
];

describe('recoverable has one meaning: calling again can succeed', () => {
  it('agrees with the next step and the text of every type, however the error and the tool say it', () => {
    for (const type of TOOL_ERROR_TYPES) {
      for (const options of ERROR_OPTIONS) {
        for (const sideEffects of [true, false]) {
          for (const retryCount of [0, 1]) {
            const failure = createToolFailure(createToolError(type, 'It failed.', options), {
              tool: 't',
              callId: 'c',
              durationMs: 1,
              retryCount,
              retryMax: retryCount,
              sideEffects,
            });
            const text = renderFailureText(failure);
            const step = failure.suggestions.join(' ');
            const seen = {
              type,
              options,
              sideEffects,
              retryCount,
              recoverable: failure.recoverable,
              step,
              text,
            };
            if (failure.recoverable) {
              expect({
                ...seen,
                forbids: FORBIDS_A_REPEAT.test(step) || SAYS_NOT_RECOVERABLE.test(text),
              }).toMatchObject({ forbids: false });
            } else {
              expect({
                ...seen,
                forbids: FORBIDS_A_REPEAT.test(step) && SAYS_NOT_RECOVERABLE.test(text),
              }).toMatchObject({ forbids: true });
              expect(text).not.toMatch(/Retrying may help/);
            }
          }
        }
      }
    }
  });

  it('calls a typo and an unknown name recoverable, with the fix as the next step', () => {
    const ctx = { tool: 'book', callId: 'c', durationMs: 1 };
    const typo = createToolFailure(
      createToolError('invalid_input', 'Arguments failed validation.'),
      ctx,
    );
    expect(typo).toMatchObject({
      recoverable: true,
      suggestions: ['Fix the arguments to match the schema, then call again.'],
    });
    expect(renderFailureText(typo)).not.toMatch(/will not help|Retrying may help/);
    const unknown = createToolFailure(
      createToolError('tool_not_found', 'There is no tool named "bok".', { didYouMean: ['book'] }),
      ctx,
    );
    expect(unknown).toMatchObject({ recoverable: true, suggestions: ["Call 'book' instead."] });
    expect(renderFailureText(unknown)).toBe(
      [
        'Tool book failed: tool_not_found, attempt 1/1.',
        'There is no tool named "bok".',
        'Did you mean: book?',
        "Next: Call 'book' instead.",
      ].join('\n'),
    );
  });
});
