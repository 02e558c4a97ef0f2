import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import {
  runLimitChange,
  settleSeconds,
  type LimitChangeRun,
} from './testing/simulated-upstream.js';

/**
 * The adaptive limiter against an upstream that tells nothing but its refusals' `Retry-After`
 * (precise unless said otherwise; a GCRA bucket with burst 5, like `bench:upstream`'s
 * token-bucket upstream, unless said otherwise), 20 callers, in virtual time: deterministic,
 * so the times are exact.
 */
describe('AdaptiveRateController settling at a changed limit (virtual time)', () => {
  const share = (result: { accepted: number; refused: number }) =>
    result.refused / (result.accepted + result.refused);
  /** 20 s at a steady 50 per second (ideal: 1,000 calls), with `upstream`'s ways. */
  const steady = (upstream: Partial<LimitChangeRun> = {}): LimitChangeRun => ({
    phases: [50],
    phaseMs: 20_000,
    callers: 20,
    startRate: 10,
    ...upstream,
  });

  it('settles within 1 s after the limit drops 50 → 20 and within 3 s after it rises 20 → 80, with under 4 % refused', async () => {
    const run = { phases: [50, 20, 80], phaseMs: 10_000, callers: 20, startRate: 10 };
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
    expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(1);
    expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(3);
    expect(share(result)).toBeLessThan(0.04);
  }, 30_000);

  it('keeps the pace when the Retry-After is in whole seconds (a 20 ms wait reads 1 s): 98 % of the limit', async () => {
    // Before: every refusal paused all 20 callers for the whole second, 540 of 1,000 in 20 s.
    const run = steady({ wholeSecondRetryAfter: true });
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
    expect(result.accepted).toBeGreaterThanOrEqual(0.98 * 50 * 20);
    expect(share(result)).toBeLessThan(0.02);
  }, 30_000);

  it('a fixed window announcing nothing but a whole-second Retry-After costs more refusals, not time', async () => {
    // The window resets on the second: a pause of a second less sends again into the full
    // window until it resets (before: 652 of 1,000 in 20 s with 1.7 % refused).
    const run = steady({ wholeSecondRetryAfter: true, counting: 'fixed-window' });
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
    expect(result.accepted).toBeGreaterThanOrEqual(0.98 * 50 * 20);
    expect(share(result)).toBeLessThan(0.06);
  }, 30_000);

  it('holds a steady limit with under 2 % refused, at 98 % of it or more', async () => {
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), steady());
    expect(share(result)).toBeLessThan(0.02);
    expect(result.accepted).toBeGreaterThanOrEqual(0.98 * 50 * 20);
  }, 30_000);
});
