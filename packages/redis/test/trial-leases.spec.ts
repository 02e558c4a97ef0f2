import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import type { BreakerCommands, ScriptReply } from '../src/redis-breaker-commands.js';
import { TrialLeases } from '../src/trial-leases.js';
import { fakeCommands } from './support/fake-breaker-commands.js';

/** Trial leases of 6 s over fake commands, in virtual time. */
function setup(commands: Partial<BreakerCommands> = {}) {
  const clock = new VirtualClock({ startMs: 1_000_000 });
  const fake = fakeCommands(commands);
  const followed: [string, ScriptReply][] = [];
  const leases = new TrialLeases(fake, clock, 6_000, (key, reply) => followed.push([key, reply]));
  const due = () => [...leases.due()];
  return { clock, fake, leases, followed, due };
}

describe('TrialLeases (virtual time, no Redis)', () => {
  it('renews the slots it holds every third of the lease, and no longer once given back', async () => {
    const { clock, leases, fake, due } = setup({ acquireTrial: () => Promise.resolve(3) });
    await expect(leases.acquire('search', 2)).resolves.toBe(true);
    expect(fake.sent).toEqual([['acquireTrial', 'search', 2, 'me:1', 6_000]]);
    expect(due()).toEqual([['search', ['me:1']]]);
    await clock.advanceBy(1_999);
    expect(due()).toEqual([]);
    await clock.advanceBy(1);
    expect(due()).toEqual([['search', ['me:1']]]);
    leases.release('search');
    expect(fake.sent.at(-1)).toEqual(['releaseTrial', 'search', 'me:1']);
    await clock.advanceBy(2_000);
    expect(due()).toEqual([]);
  });

  it('drops a slot taken at an earlier version of the shared state: nothing to renew, release or decide', async () => {
    const { leases, fake, due } = setup({ acquireTrial: () => Promise.resolve(3) });
    await leases.acquire('search', 1);
    leases.keep('search', 4);
    expect(due()).toEqual([]);
    expect(leases.succeeded('search', 1)).toBeUndefined();
    leases.release('search');
    expect(fake.sent).toHaveLength(1);
  });

  it('lets every trial run while Redis is away or failing, and renews no slot it may not hold', async () => {
    const away = setup({ reachable: () => false });
    await expect(away.leases.acquire('search', 1)).resolves.toBe(true);
    expect(away.fake.sent).toEqual([]);
    const failing = setup({ acquireTrial: () => Promise.reject(new Error('timeout')) });
    await expect(failing.leases.acquire('search', 1)).resolves.toBe(true);
    expect(failing.due()).toEqual([]);
  });

  it('refuses the trial when every shared slot is taken', async () => {
    const { leases, due } = setup({ acquireTrial: () => Promise.resolve(0) });
    await expect(leases.acquire('search', 1)).resolves.toBe(false);
    expect(due()).toEqual([]);
  });

  it('a success is decided in Redis at clock time; its reply is followed unless Redis lost the hash', async () => {
    const closed: ScriptReply = [1, 'closed', 5, '1000000'];
    const { clock, leases, fake, followed } = setup({
      acquireTrial: () => Promise.resolve(4),
      trialSucceeded: () => Promise.resolve(closed),
    });
    await leases.acquire('search', 1);
    await clock.advanceBy(250);
    await expect(leases.succeeded('search', 1)).resolves.toBe(true);
    expect(fake.sent.at(-1)).toEqual(['trialSucceeded', 'search', 'me:1', 1, 1_000_250]);
    expect(followed).toEqual([['search', closed]]);

    const lost = setup({
      acquireTrial: () => Promise.resolve(4),
      trialSucceeded: () => Promise.resolve([0, 'closed', 0, ''] as ScriptReply),
    });
    await lost.leases.acquire('search', 1);
    await expect(lost.leases.succeeded('search', 1)).resolves.toBe(false);
    expect(lost.followed).toEqual([]);
  });
});
