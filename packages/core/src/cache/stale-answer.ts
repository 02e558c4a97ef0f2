import type { ToolErrorType } from '../errors/tool-error-type.js';
import { formatDelay } from '../results/format-delay.js';

/**
 * Failures a stale cached answer may stand in for: the upstream is slow, refusing, unreachable
 * or failing, or its breaker is open. A wrong argument or a missing record is never answered
 * from the cache.
 *
 * @publicApi
 */
export const STALE_IF_ERROR_TYPES: readonly ToolErrorType[] = Object.freeze([
  'timeout',
  'rate_limited',
  'network',
  'upstream_unavailable',
  'circuit_open',
  'bulkhead_full',
]);

/**
 * The note the model reads with a stale answer: `Stale answer from 2 minutes ago: the
 * upstream failed (circuit_open), so this is the last answer it gave.`
 *
 * @publicApi
 */
export function staleAnswerNote(ageMs: number, reason: ToolErrorType): string {
  return `Stale answer from ${formatDelay(ageMs)} ago: the tool failed now (${reason}), so this is the last answer it gave; it may be out of date.`;
}

/** The notes the model reads with an answer: the stale answer's, or none. @internal */
export function cacheNotes(
  cache:
    | { readonly lookup: string; readonly ageMs?: number; readonly staleBecause?: ToolErrorType }
    | undefined,
): readonly string[] {
  return cache?.lookup === 'stale'
    ? [staleAnswerNote(cache.ageMs ?? 0, cache.staleBecause ?? 'upstream_unavailable')]
    : NO_NOTES;
}

const NO_NOTES: readonly string[] = Object.freeze([]);
