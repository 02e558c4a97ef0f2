import type { Clock } from '@toolshield/core';
import type { ChaosRule } from '../selection/chaos-rule.js';

/** @publicApi */
export interface ChaosControllerOptions {
  /** The initial rules. */
  readonly rules?: readonly ChaosRule[];
  /** The run's seed; each rule derives its own stream from it (default: a random one, see `seed`). */
  readonly seed?: number;
  /** The clock faults wait on and time windows are read from (default: the system clock). */
  readonly clock?: Clock;
  /** Start enabled (default `false`: chaos is off until enabled explicitly). */
  readonly enabled?: boolean;
  /** Allow enabling while `NODE_ENV` is `production` (default `false`). */
  readonly allowInProduction?: boolean;
  /** Where `NODE_ENV` is read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}
