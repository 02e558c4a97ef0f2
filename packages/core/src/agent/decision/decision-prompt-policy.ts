import type { ToolFailure } from '../../results/index.js';

/**
 * When the agent loop adds the decision prompt after a turn with failures:
 * `every-failure`, `unrecoverable-only` (only failures the model cannot fix by waiting or
 * retrying), `{ afterConsecutiveFailures: n }` (once n calls in a row have failed), or `never`.
 *
 * @publicApi
 */
export type DecisionPromptPolicy =
  'every-failure' | 'unrecoverable-only' | { readonly afterConsecutiveFailures: number } | 'never';

/**
 * The failures of a turn the decision prompt should cover under `policy`; empty when no
 * prompt is due.
 *
 * @param turnFailures failures of the calls that ran (or were rejected) this turn
 * @param consecutiveFailures failed calls in a row so far, this turn's included
 * @publicApi
 */
export function failuresToPromptFor(
  policy: DecisionPromptPolicy,
  turnFailures: readonly ToolFailure[],
  consecutiveFailures: number,
): readonly ToolFailure[] {
  if (policy === 'never') return [];
  if (policy === 'every-failure') return turnFailures;
  if (policy === 'unrecoverable-only')
    return turnFailures.filter((failure) => !failure.recoverable);
  return consecutiveFailures >= policy.afterConsecutiveFailures ? turnFailures : [];
}
