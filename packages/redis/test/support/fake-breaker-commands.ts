import type { BreakerCommands, ScriptReply } from '../../src/redis-breaker-commands.js';

/** {@link BreakerCommands} without Redis: records what was sent; `overrides` answer. */
export interface FakeBreakerCommands extends BreakerCommands {
  /** Every command sent, as [name, ...arguments]. */
  readonly sent: unknown[][];
}

/** Fake commands of instance `me`: Redis answers, holds no state, and every script applies. */
export function fakeCommands(overrides: Partial<BreakerCommands> = {}): FakeBreakerCommands {
  const sent: unknown[][] = [];
  const answers: Omit<BreakerCommands, 'instanceId'> = {
    reachable: () => true,
    sharing: () => true,
    read: () => Promise.resolve({}),
    transition: (_key, _from, to, openedAt) =>
      Promise.resolve([1, to, 1, openedAt] satisfies ScriptReply),
    join: (_key, state, openedAt) => Promise.resolve([1, state, 1, openedAt] satisfies ScriptReply),
    merge: () => Promise.resolve([1, 0, 0]),
    acquireTrial: () => Promise.resolve(1),
    trialSucceeded: () => Promise.resolve([0, 'half_open', 1, ''] satisfies ScriptReply),
    releaseTrial: () => Promise.resolve(undefined),
    ...overrides,
  };
  const record =
    <A extends unknown[], R>(name: string, answer: (...args: A) => R) =>
    (...args: A): R => {
      sent.push([name, ...args]);
      return answer(...args);
    };
  return {
    instanceId: 'me',
    sent,
    reachable: answers.reachable,
    sharing: answers.sharing,
    read: record('read', answers.read),
    transition: record('transition', answers.transition),
    join: record('join', answers.join),
    merge: record('merge', answers.merge),
    acquireTrial: record('acquireTrial', answers.acquireTrial),
    trialSucceeded: record('trialSucceeded', answers.trialSucceeded),
    releaseTrial: record('releaseTrial', answers.releaseTrial),
  };
}
