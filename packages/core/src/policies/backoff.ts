import { assertOptions } from '../options/assert-options.js';
import { BACKOFF_OPTIONS_RULE } from './backoff-options.rule.js';
import type { BackoffOptions } from './backoff-options.js';

export type { BackoffJitter, BackoffOptions } from './backoff-options.js';

/** {@link BackoffOptions} with every default applied. @publicApi */
export type Backoff = Required<BackoffOptions>;

/** @publicApi */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({
  baseMs: 500,
  capMs: 10_000,
  jitter: 'decorrelated',
  random: Math.random,
});

/** Applies the defaults of {@link DEFAULT_BACKOFF}. @publicApi */
export function resolveBackoff(options: BackoffOptions = {}): Backoff {
  assertOptions(BACKOFF_OPTIONS_RULE, options, 'BackoffOptions');
  const baseMs = Math.max(0, options.baseMs ?? DEFAULT_BACKOFF.baseMs);
  const capMs = Math.max(0, options.capMs ?? DEFAULT_BACKOFF.capMs);
  return {
    baseMs,
    capMs,
    jitter: options.jitter ?? DEFAULT_BACKOFF.jitter,
    random: options.random ?? DEFAULT_BACKOFF.random,
  };
}

/**
 * The shortest wait before a retry the backoff stands for, `min(baseMs, capMs)`: also the
 * least a server's `Retry-After` (even `0`) is waited.
 *
 * @publicApi
 */
export function backoffMinimum(backoff: Backoff): number {
  return Math.min(backoff.baseMs, backoff.capMs);
}

/**
 * The delay before retry number `retry` (1 for the first retry), always within [0, capMs].
 * Decorrelated jitter grows from the previous delay, so pass the delay used before the
 * previous retry (omit it for the first retry).
 *
 * @publicApi
 */
export function backoffDelay(backoff: Backoff, retry: number, previousDelayMs?: number): number {
  const { baseMs, capMs, random } = backoff;
  const exponent = Math.min(Math.max(retry - 1, 0), 1023);
  const exponential = Math.min(capMs, baseMs * 2 ** exponent);
  switch (backoff.jitter) {
    case 'none':
      return exponential;
    case 'full':
      return clamp(random() * exponential, capMs);
    case 'decorrelated': {
      const low = Math.min(baseMs, capMs);
      const high = Math.max(low, 3 * (previousDelayMs ?? baseMs));
      return clamp(low + random() * (high - low), capMs);
    }
  }
}

function clamp(delayMs: number, capMs: number): number {
  return Math.min(capMs, Math.max(0, delayMs));
}
