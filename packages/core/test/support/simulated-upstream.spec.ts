import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import {
  runLimitChange,
  settleSeconds,
  type LimitChangeResult,
  type LimitChangeRun,
} from './simulated-upstream.js';

describe('settleSeconds', () => {
  const run: LimitChangeRun = { phases: [10], phaseMs: 4_000, callers: 1, startRate: 10 };
  const result = (acceptedPerSecond: (number | undefined)[]): LimitChangeResult => ({
    // A second nothing was accepted in is a hole in the counts the simulation keeps.
    acceptedPerSecond: acceptedPerSecond as number[],
    refusedPerSecond: [],
    accepted: 0,
    refused: 0,
    elapsedMs: 0,
  });

  it('counts the seconds until every later one is within a tenth of the limit', () => {
    expect(settleSeconds(result([3, 10, 11, 9]), run, 0)).toBe(1);
  });

  it('takes a second nothing was accepted in (a hole in the counts) for 0, not for settled', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(settleSeconds(result([10, , 10, 10]), run, 0)).toBe(2);
    expect(settleSeconds(result([10, 10]), run, 0)).toBeUndefined();
  });
});

describe('runLimitChange', () => {
  const run: LimitChangeRun = {
    phases: [20],
    phaseMs: 3_000,
    callers: 5,
    startRate: 10,
    upstream: { counting: 'sliding-log', headers: 'retry-after-seconds' },
  };
  const simulate = (settings: Partial<LimitChangeRun>) =>
    runLimitChange(new VirtualClock({ startMs: 0 }), { ...run, ...settings });

  it('runs the same for the same seed, and otherwise with answer times and stalls that vary', async () => {
    const varied = { latencyJitterMs: 20, stalls: { everyMs: 500, maxMs: 100 } };
    const first = await simulate({ ...varied, seed: 3 });
    expect(await simulate({ ...varied, seed: 3 })).toEqual(first);
    expect(await simulate({ ...varied, seed: 4 })).not.toEqual(first);
    expect(await simulate({ seed: 3 })).not.toEqual(first);
  });
});
