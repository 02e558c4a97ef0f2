import { describe, expect, it } from '@jest/globals';
import { sleep } from '../../clock/sleep.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { Hedger } from './hedger.js';

function slowThenFast(clock: VirtualClock, durations: number[]) {
  const aborted: number[] = [];
  let index = 0;
  const attempt = async (signal: AbortSignal) => {
    const mine = index++;
    signal.addEventListener('abort', () => aborted.push(mine));
    await sleep(clock, durations[mine] ?? 10, signal);
    return mine;
  };
  return { attempt, aborted };
}

describe('Hedger', () => {
  it('starts a second attempt after the delay; the first to succeed wins and the other is aborted', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 100, maxExtraShare: 1 }, clock);
    const { attempt, aborted } = slowThenFast(clock, [1_000, 50]);
    const result = hedger.run(attempt);
    await clock.advanceBy(200);
    await expect(result).resolves.toBe(1);
    expect(aborted).toEqual([0]);
    expect(hedger.stats()).toEqual({ calls: 1, hedges: 1, hedgeWins: 1 });
  });

  it('does not hedge a call that finishes before the delay', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 100, maxExtraShare: 1 }, clock);
    const { attempt } = slowThenFast(clock, [40]);
    const result = hedger.run(attempt);
    await clock.advanceBy(500);
    await expect(result).resolves.toBe(0);
    expect(hedger.stats().hedges).toBe(0);
  });

  it('keeps extra attempts within the share of calls', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 10, maxExtraShare: 0.1 }, clock);
    const calls = Array.from({ length: 50 }, () =>
      hedger.run((signal) => sleep(clock, 100, signal)),
    );
    await clock.advanceBy(1_000);
    await Promise.all(calls);
    expect(hedger.stats().hedges).toBeLessThanOrEqual(5);
  });

  it('sends a hedge due while the budget is spent once a later call adds to it, instead of dropping it', async () => {
    const clock = new VirtualClock();
    // One extra attempt per two calls: the first call alone has no budget for one.
    const hedger = new Hedger({ delayMs: 10, maxExtraShare: 0.5 }, clock);
    const told: string[] = [];
    // Requests: 0 the first call's (slow), 1 the second call's, 2 the first call's hedge.
    const { attempt } = slowThenFast(clock, [1_000, 20, 5]);
    const first = hedger.run(attempt, { onHedge: (afterMs) => told.push(`after ${afterMs}`) });
    await clock.advanceBy(30);
    expect(told).toEqual([]);
    const second = hedger.run(attempt);
    await clock.advanceBy(5);
    await expect(first).resolves.toBe(2);
    expect(told).toEqual(['after 30']);
    await clock.advanceBy(15);
    await expect(second).resolves.toBe(1);
    expect(hedger.stats()).toEqual({ calls: 2, hedges: 1, hedgeWins: 1 });
  });

  it('drops a waiting hedge when its call ends first', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 10, maxExtraShare: 0.5 }, clock);
    const { attempt } = slowThenFast(clock, [50, 1_000, 1_000]);
    const first = hedger.run(attempt);
    await clock.advanceBy(50);
    await expect(first).resolves.toBe(0);
    // The first call's hedge, due at 10 without budget, left with the call: the budget the
    // second call brings goes to the second call's own hedge (request 2), not to it.
    const second = hedger.run(attempt);
    await clock.advanceBy(1_010);
    await expect(second).resolves.toBe(1);
    expect(hedger.stats()).toEqual({ calls: 2, hedges: 1, hedgeWins: 0 });
  });

  it('fails at once when the first attempt fails before the delay; waits for the hedge when it fails after', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 100, maxExtraShare: 1 }, clock);
    const early = hedger.run(() => Promise.reject(new Error('early')));
    await expect(early).rejects.toThrow('early');
    let n = 0;
    const late = hedger.run(async (signal) => {
      const mine = n++;
      await sleep(clock, mine === 0 ? 150 : 100, signal);
      if (mine === 0) throw new Error('first failed');
      return 'hedge';
    });
    await clock.advanceBy(500);
    await expect(late).resolves.toBe('hedge');
  });

  it("uses the p95 of recent calls once it has enough of them, and aborts both on the caller's abort", async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 'p95', minSamples: 20, maxExtraShare: 1 }, clock);
    expect(hedger.hedgeDelay()).toBeUndefined();
    for (let i = 0; i < 20; i++) {
      const call = hedger.run((signal) => sleep(clock, 10 + i, signal));
      await clock.advanceBy(50);
      await call;
    }
    expect(hedger.hedgeDelay()).toBe(29);
    const controller = new AbortController();
    const { attempt, aborted } = slowThenFast(clock, [1_000, 1_000]);
    const call = hedger.run(attempt, { signal: controller.signal });
    await clock.advanceBy(40);
    controller.abort(new Error('caller left'));
    await expect(call).rejects.toThrow('caller left');
    expect(aborted.sort()).toEqual([0, 1]);
  });

  it('tells who won, gives the loser a cancellation reason, and skips the hedge its caller declines', async () => {
    const clock = new VirtualClock();
    const hedger = new Hedger({ delayMs: 100, maxExtraShare: 1 }, clock);
    const reasons: unknown[] = [];
    const told: unknown[] = [];
    const attempt = async (signal: AbortSignal, hedge: boolean) => {
      signal.addEventListener('abort', () => reasons.push(signal.reason));
      await sleep(clock, hedge ? 10 : 1_000, signal);
      return hedge;
    };
    const won = hedger.run(attempt, {
      onHedge: (delayMs) => told.push(`hedge after ${delayMs}`),
      onWinner: (hedge) => told.push(hedge ? 'hedge won' : 'first won'),
    });
    await clock.advanceBy(200);
    await expect(won).resolves.toBe(true);
    expect(told).toEqual(['hedge after 100', 'hedge won']);
    expect(reasons).toEqual([expect.objectContaining({ type: 'cancelled' })]);

    const declined = hedger.run(attempt, { mayHedge: () => false });
    await clock.advanceBy(1_000);
    await expect(declined).resolves.toBe(false);
    expect(hedger.stats()).toEqual({ calls: 2, hedges: 1, hedgeWins: 1 });
  });
});
