import { type ToolOutcome } from '@toolshield/core';
import { outcomeContent } from '@toolshield/core/internal';

/**
 * What the model reads for a toolshield outcome in Mastra (a tool's `toModelOutput`): a
 * result's output as text (a string as it is, anything else as JSON), a failure as
 * toolshield's short failure text in an `error-text` part, which providers mark as an error.
 *
 * @publicApi
 */
export interface ToolshieldModelOutput {
  /** `text` for a result, `error-text` for a failure. */
  readonly type: 'text' | 'error-text';
  /** The result's output (JSON unless a string), or toolshield's failure text. */
  readonly value: string;
}

/**
 * The model's reading of an outcome: `text` for a result, `error-text` with toolshield's
 * failure text for a failure.
 *
 * @publicApi
 */
export function outcomeModelOutput(outcome: ToolOutcome): ToolshieldModelOutput {
  return { type: outcome.success ? 'text' : 'error-text', value: outcomeContent(outcome) };
}
