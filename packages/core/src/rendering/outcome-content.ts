import { toJsonSafe } from '../results/json-safe.js';
import type { ToolOutcome } from '../results/tool-outcome.js';
import { renderFailureText } from './render-failure-text.js';

/**
 * How provider messages carry a failure: the short text of {@link renderFailureText} (the
 * default) or the whole payload as JSON.
 *
 * @publicApi
 */
export type FailureFormat = 'text' | 'json';

/** @publicApi */
export interface OutcomeRenderOptions {
  /** Default `'text'`. */
  readonly failureFormat?: FailureFormat;
}

/**
 * The outcome as one JSON text, whatever it holds (cycles, BigInts and the like are made
 * JSON-safe rather than thrown on).
 *
 * @publicApi
 */
export function renderOutcomeJson(outcome: ToolOutcome, space?: number): string {
  return JSON.stringify(toJsonSafe(outcome), undefined, space) ?? 'null';
}

/**
 * What the model reads for an outcome: a string output as it is, any other output as JSON,
 * and a failure as text or JSON (see {@link OutcomeRenderOptions}).
 * @publicApi
 */
export function outcomeContent(outcome: ToolOutcome, options: OutcomeRenderOptions = {}): string {
  if (outcome.success) {
    return typeof outcome.output === 'string'
      ? outcome.output
      : (JSON.stringify(toJsonSafe(outcome.output)) ?? 'null');
  }
  return options.failureFormat === 'json' ? renderOutcomeJson(outcome) : renderFailureText(outcome);
}
