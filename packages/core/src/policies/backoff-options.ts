/**
 * How a retry delay is randomised:
 * - `full`: uniform in [0, exponential delay) ("full jitter");
 * - `decorrelated`: uniform in [base, 3 × previous delay), capped ("decorrelated jitter");
 * - `none`: the exponential delay itself.
 *
 * @publicApi
 */
export type BackoffJitter = 'full' | 'decorrelated' | 'none';

/** @publicApi */
export interface BackoffOptions {
  /** The first retry's nominal delay, doubled for each further retry (default 500 ms). */
  readonly baseMs?: number;
  /** No delay exceeds this (default 10 s). */
  readonly capMs?: number;
  /** Default `decorrelated`, as in cockatiel and Polly. */
  readonly jitter?: BackoffJitter;
  /** Uniform random source in [0, 1) (default `Math.random`); inject a seeded one for reproducible runs. */
  readonly random?: () => number;
}
