import { describe, expect, it } from '@jest/globals';
import {
  ToolCircuitBreaker,
  type BreakerHandle,
  type SharedBreakerWindow,
  type SharedWindowCounts,
} from '@toolshield/core/internal';
import { VirtualClock } from '@toolshield/core/testing';
import { BreakerStateSync } from '../src/breaker-state-sync.js';
import { OutageReconciliation } from '../src/outage-reconciliation.js';
import type { BreakerCommands, ScriptReply } from '../src/redis-breaker-commands.js';
import { fakeCommands } from './support/fake-breaker-commands.js';

/**
 * One breaker (a 10 s window in 1 s buckets) whose instance counted while Redis was away,
 * reconciled over fake commands in virtual time.
 */
function setup(commands: Partial<BreakerCommands> = {}) {
  const clock = new VirtualClock({ startMs: 100_000 });
  const fake = fakeCommands(commands);
  // The others' counts as the window sync keeps them, read by the breaker's opening decision.
  const remote = new Map<string, SharedWindowCounts>();
  const shared: SharedBreakerWindow = {
    count: () => undefined,
    remote: (key) => remote.get(key),
    acquireTrial: () => Promise.resolve(true),
    releaseTrial: () => undefined,
  };
  const breaker = new ToolCircuitBreaker(
    { volumeThreshold: 5, errorThresholdPercentage: 50, resetTimeoutMs: 30_000 },
    { clock, tool: 'search', shared },
  );
  const breakers = new Map<string, BreakerHandle>([['search', breaker]]);
  const state = new BreakerStateSync(fake, clock, breakers, {
    onVersion: () => undefined,
    onNudge: () => undefined,
  });
  const outage = new OutageReconciliation(fake, clock, state, {
    onRemoteCounts: (key, counts) => remote.set(key, counts),
  });
  const merges = () => fake.sent.filter(([name]) => name === 'merge');
  return { clock, fake, breaker, breakers, outage, remote, merges };
}

const closedAt = (version: number): ScriptReply => [0, 'closed', version, ''];

describe('OutageReconciliation (virtual time, no Redis)', () => {
  it('adds the counts kept while away to a closed shared window, by bucket, without those that left the window', async () => {
    const { clock, breaker, outage, merges } = setup({ join: () => Promise.resolve(closedAt(7)) });
    outage.keep(breaker, { successes: 4, failures: 0 }); // bucket 100
    await clock.advanceBy(3_000);
    outage.keep(breaker, { successes: 0, failures: 2 }); // bucket 103
    await clock.advanceBy(8_000); // now bucket 111: the window is buckets 102..111
    await outage.join(breaker);
    expect(merges()).toHaveLength(1);
    const [, target, own] = merges()[0] as [string, { window: number[] }, unknown[]];
    expect(target).toMatchObject({ key: 'search', version: 7, bucketMs: 1_000, ttlMs: 11_000 });
    expect(target.window).toEqual([102, 103, 104, 105, 106, 107, 108, 109, 110, 111]);
    expect(own[1]).toEqual({ successes: 0, failures: 2 });
    expect(
      own.filter((counts) => JSON.stringify(counts) !== '{"successes":0,"failures":0}'),
    ).toHaveLength(1);
  });

  it('sends the counts once: a join that failed keeps them for the next one, a merge that failed drops them', async () => {
    let joins = 0;
    const { breaker, outage, merges } = setup({
      join: () =>
        ++joins === 1 ? Promise.reject(new Error('timeout')) : Promise.resolve(closedAt(2)),
      merge: () => Promise.reject(new Error('timeout')),
    });
    outage.keep(breaker, { successes: 1, failures: 1 });
    await outage.join(breaker);
    expect(merges()).toHaveLength(0);
    await outage.join(breaker);
    expect(merges()).toHaveLength(1);
    await outage.join(breaker);
    expect(merges()).toHaveLength(1);
  });

  it('opens the breaker when the merged window calls for it, with the others counts the merge read back', async () => {
    const { breaker, outage, remote } = setup({
      join: () => Promise.resolve(closedAt(3)),
      merge: () => Promise.resolve([1, 1, 6]),
    });
    outage.keep(breaker, { successes: 0, failures: 1 });
    await outage.join(breaker);
    expect(remote.get('search')).toEqual({ successes: 1, failures: 6 });
    expect(breaker.state).toBe('open');
  });

  it('drops the counts when the shared state is open: the breaker follows it, open since then', async () => {
    const { clock, breaker, outage, merges } = setup({
      join: () => Promise.resolve([0, 'open', 4, String(clock.now() - 10_000)] as ScriptReply),
    });
    outage.keep(breaker, { successes: 0, failures: 3 });
    await outage.join(breaker);
    expect(merges()).toHaveLength(0);
    expect(breaker.state).toBe('open');
    expect(breaker.snapshot()).toMatchObject({ openedAt: 90_000 });
  });

  it('forgets the counts of a breaker that closed again on its own while Redis was away', async () => {
    const { breaker, outage, merges } = setup({ join: () => Promise.resolve(closedAt(1)) });
    outage.keep(breaker, { successes: 0, failures: 3 });
    outage.forget('search');
    await outage.join(breaker);
    expect(merges()).toHaveLength(0);
  });

  it('joins again, on a sync while Redis answers, each breaker whose counts are still kept', async () => {
    const { breaker, breakers, outage, fake } = setup({ reachable: () => true });
    outage.keep(breaker, { successes: 1, failures: 0 });
    outage.joinAgainWithUnsent(breakers);
    expect(fake.sent.filter(([name]) => name === 'join')).toEqual([
      ['join', 'search', 'closed', '100000'],
    ]);
  });
});
