import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { runLimitChange, settleSeconds } from './testing/simulated-upstream.js';

/**
 * The adaptive limiter against an upstream that tells nothing but its refusals' precise
 * `Retry-After` (a GCRA bucket with burst 5, like `bench:upstream`'s token-bucket upstream),
 * 20 callers, in virtual time: deterministic, so the times are exact.
 */
describe('AdaptiveRateController settling at a changed limit (virtual time)', () => {
  const share = (result: { accepted: number; refused: number }) =>
    result.refused / (result.accepted + result.refused);

  it('settles within 1 s after the limit drops 50 → 20 and within 3 s after it rises 20 → 80, with under 4 % refused', async () => {
    const run = { phases: [50, 20, 80], phaseMs: 10_000, callers: 20, startRate: 10 };
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
    expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(1);
    expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(3);
    expect(share(result)).toBeLessThan(0.04);
  }, 30_000);

  it('holds a steady limit with under 2 % refused, at 98 % of it or more', async () => {
    const run = { phases: [50], phaseMs: 20_000, callers: 20, startRate: 10 };
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
    expect(share(result)).toBeLessThan(0.02);
    expect(result.accepted).toBeGreaterThanOrEqual(0.98 * 50 * 20);
  }, 30_000);
});
