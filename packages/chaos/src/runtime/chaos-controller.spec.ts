import { describe, expect, it, jest } from '@jest/globals';
import { type ToolCallContext } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import fc from 'fast-check';
import type { ChaosFault } from '../faults/chaos-fault.js';
import { latency } from '../faults/latency.fault.js';
import { networkError } from '../faults/network-error.fault.js';
import type { ChaosRule } from '../selection/chaos-rule.js';
import { ChaosController, type ChaosControllerOptions } from './chaos-controller.js';
import type { ChaosInjectionEvent } from './chaos-injection-event.js';
import { ChaosInProductionError } from './production-guard.js';

const context = (callId: string, toolName = 'search'): ToolCallContext => ({
  callId,
  toolName,
  attempt: 1,
  signal: new AbortController().signal,
  metadata: {},
});

const controller = (options: ChaosControllerOptions = {}) =>
  new ChaosController({ seed: 42, enabled: true, env: {}, clock: new VirtualClock(), ...options });

/** The 1-based indexes of the calls (of `tools`, in turn) that got a fault from `ruleId`. */
function injectedCalls(
  chaos: ChaosController,
  calls: number,
  ruleId?: string,
  tools = ['search'],
): number[] {
  const hits: number[] = [];
  for (let call = 1; call <= calls; call++) {
    const tool = tools[(call - 1) % tools.length] as string;
    const selected = chaos.select(tool, context(`c${call}`, tool));
    if (selected.some((fault) => ruleId === undefined || fault.invocation.ruleId === ruleId))
      hits.push(call);
  }
  return hits;
}

const reset: ChaosFault = networkError('ECONNRESET');

describe('ChaosController safety', () => {
  it('is off by default: nothing is selected or counted', () => {
    const chaos = new ChaosController({ rules: [{ fault: reset }], env: {} });
    expect(chaos.enabled).toBe(false);
    expect(chaos.select('search', context('c1'))).toEqual([]);
    expect(chaos.counters().calls).toBe(0);
  });

  it('refuses to enable in production, with a message that says how to allow it', () => {
    const chaos = new ChaosController({ env: { NODE_ENV: 'production' } });
    expect(() => chaos.enable()).toThrow(ChaosInProductionError);
    expect(() => chaos.enable()).toThrow(/NODE_ENV is "production".*allowInProduction: true/);
    expect(chaos.enabled).toBe(false);
    expect(() => new ChaosController({ enabled: true, env: { NODE_ENV: ' Production ' } })).toThrow(
      ChaosInProductionError,
    );
  });

  it('enables in production when explicitly allowed, and anywhere else', () => {
    const allowed = new ChaosController({
      env: { NODE_ENV: 'production' },
      allowInProduction: true,
    });
    allowed.enable();
    expect(allowed.enabled).toBe(true);
    expect(new ChaosController({ enabled: true, env: { NODE_ENV: 'test' } }).enabled).toBe(true);
  });

  it('reads process.env by default', () => {
    const previous = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    try {
      expect(() => new ChaosController().enable()).toThrow(ChaosInProductionError);
    } finally {
      if (previous === undefined) delete process.env['NODE_ENV'];
      else process.env['NODE_ENV'] = previous;
    }
  });
});

describe('ChaosController selection', () => {
  it('matches tool names and globs; no tools means every tool', () => {
    const chaos = controller({
      rules: [
        { name: 'exact', tools: 'fetch_page', fault: reset },
        { name: 'glob', tools: ['search.*', 'db.**'], fault: reset },
        { name: 'all', fault: reset },
      ],
    });
    const ruleIds = (tool: string) =>
      chaos.select(tool, context('c', tool)).map((selected) => selected.invocation.ruleId);
    expect(ruleIds('fetch_page')).toEqual(['exact', 'all']);
    expect(ruleIds('search.web')).toEqual(['glob', 'all']);
    expect(ruleIds('db.users.find')).toEqual(['glob', 'all']);
    expect(ruleIds('searcher')).toEqual(['all']);
  });

  it('every Nth matched call', () => {
    expect(injectedCalls(controller({ rules: [{ fault: reset, everyNth: 3 }] }), 10)).toEqual([
      3, 6, 9,
    ]);
  });

  it('first N matched calls, counting only matched tools', () => {
    const chaos = controller({ rules: [{ tools: 'search', fault: reset, firstN: 2 }] });
    expect(injectedCalls(chaos, 8, undefined, ['search', 'other'])).toEqual([1, 3]);
  });

  it('only inside the time window [activeFrom, activeUntil) of the clock', async () => {
    const clock = new VirtualClock({ startMs: 0 });
    const chaos = controller({
      clock,
      rules: [{ fault: reset, activeFrom: 1_000, activeUntil: new Date(3_000) }],
    });
    const hits: number[] = [];
    for (let second = 0; second < 5; second++) {
      if (chaos.select('search', context(`c${second}`)).length > 0) hits.push(clock.now());
      await clock.advanceBy(1_000);
    }
    expect(hits).toEqual([1_000, 2_000]);
    expect(chaos.rules()[0]?.matchedCalls).toBe(2);
  });

  it('stops at maxInjections', () => {
    expect(injectedCalls(controller({ rules: [{ fault: reset, maxInjections: 3 }] }), 10)).toEqual([
      1, 2, 3,
    ]);
  });

  it('combines conditions: every 2nd call, at most 2 injections', () => {
    expect(
      injectedCalls(controller({ rules: [{ fault: reset, everyNth: 2, maxInjections: 2 }] }), 10),
    ).toEqual([2, 4]);
  });

  it('injects about `probability` of the calls', () => {
    const hits = injectedCalls(controller({ rules: [{ fault: reset, probability: 0.25 }] }), 4_000);
    expect(hits.length).toBeGreaterThan(850);
    expect(hits.length).toBeLessThan(1_150);
  });

  it('lets a fault decline a call without counting it as an injection', () => {
    const declining: ChaosFault = {
      ...reset,
      applies: (invocation) => invocation.toolCallIndex % 2 === 1,
    };
    const chaos = controller({ rules: [{ fault: declining, maxInjections: 2 }] });
    expect(injectedCalls(chaos, 6)).toEqual([1, 3]);
    expect(chaos.rules()[0]).toMatchObject({ matchedCalls: 6, injections: 2 });
  });

  it('refuses invalid rules and duplicate names', () => {
    expect(() => controller({ rules: [{ fault: reset, probability: 1.5 }] })).toThrow(
      /probability/,
    );
    expect(() => controller({ rules: [{ fault: reset, everyNth: 0 }] })).toThrow(/everyNth/);
    expect(() => controller({ rules: [{ fault: reset, firstN: 1.5 }] })).toThrow(/firstN/);
    expect(() =>
      controller({
        rules: [
          { name: 'a', fault: reset },
          { name: 'a', fault: reset },
        ],
      }),
    ).toThrow(/already exists/);
  });
});

describe('ChaosController determinism', () => {
  const flaky: ChaosRule = { name: 'flaky', fault: reset, probability: 0.3 };

  it('the same seed injects the same calls, a different seed different ones', () => {
    const run = (seed: number) => injectedCalls(controller({ seed, rules: [flaky] }), 200);
    expect(run(7)).toEqual(run(7));
    expect(run(8)).not.toEqual(run(7));
  });

  it('for any seed, the injections and fault parameters replay exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const trace = async () => {
          const clock = new VirtualClock();
          const chaos = controller({
            seed,
            clock,
            rules: [
              flaky,
              {
                name: 'slow',
                fault: latency({ kind: 'uniform', minMs: 0, maxMs: 1_000 }),
                probability: 0.5,
              },
            ],
          });
          const seen: string[] = [];
          for (let call = 0; call < 30; call++) {
            for (const selected of chaos.select('search', context(`c${call}`))) {
              seen.push(`${call}:${selected.invocation.ruleId}:${selected.invocation.random()}`);
            }
          }
          return seen;
        };
        expect(await trace()).toEqual(await trace());
      }),
      { numRuns: 50 },
    );
  });

  it("adding a rule does not change another rule's draws", () => {
    const alone = injectedCalls(controller({ rules: [flaky] }), 300, 'flaky');
    const crowded = controller({
      rules: [
        { name: 'first', fault: reset, probability: 0.5 },
        flaky,
        { fault: reset, probability: 0.9 },
      ],
    });
    expect(injectedCalls(crowded, 300, 'flaky')).toEqual(alone);
  });

  it('reset replays the same run, and can switch seeds', () => {
    const chaos = controller({ rules: [flaky] });
    const first = injectedCalls(chaos, 100);
    chaos.reset();
    expect(chaos.counters().calls).toBe(0);
    expect(injectedCalls(chaos, 100)).toEqual(first);
    chaos.reset(43);
    expect(chaos.seed).toBe(43);
    expect(injectedCalls(chaos, 100)).toEqual(
      injectedCalls(controller({ seed: 43, rules: [flaky] }), 100),
    );
  });

  it('picks and reports a seed when none is given', () => {
    const { seed } = new ChaosController({ env: {} });
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});

describe('ChaosController rules and events', () => {
  it('adds, replaces and removes rules at runtime', () => {
    const chaos = controller();
    const id = chaos.addRule({ fault: reset });
    expect(id).toBe('rule-1');
    expect(chaos.addRule({ fault: reset })).toBe('rule-2');
    chaos.replaceRule('rule-1', { fault: reset, tools: 'other' });
    expect(chaos.rules().map((rule) => [rule.id, rule.rule.tools])).toEqual([
      ['rule-1', 'other'],
      ['rule-2', undefined],
    ]);
    expect(chaos.removeRule('rule-2')).toBe(true);
    expect(chaos.removeRule('rule-2')).toBe(false);
    expect(() => chaos.replaceRule('nope', { fault: reset })).toThrow(/no chaos rule named "nope"/);
    chaos.setRules([{ name: 'only', fault: reset }]);
    expect(chaos.rules().map((rule) => rule.id)).toEqual(['only']);
  });

  it('counts and announces a fault when it begins, per rule, fault and tool', async () => {
    const clock = new VirtualClock({ startMs: 5_000 });
    const chaos = controller({ clock, rules: [{ name: 'r', fault: reset }] });
    const events: ChaosInjectionEvent[] = [];
    const unsubscribe = chaos.onInjected((event) => events.push(event));
    const [selected] = chaos.select('search', { ...context('call-9'), attempt: 2 });
    expect(chaos.counters().injections).toBe(0);
    selected?.begin();
    expect(events).toEqual([
      {
        type: 'chaos.injected',
        at: 5_000,
        callId: 'call-9',
        tool: 'search',
        fault: 'network:ECONNRESET',
        rule: 'r',
        attempt: 2,
        chaos: true,
      },
    ]);
    expect(chaos.counters()).toEqual({
      calls: 1,
      injections: 1,
      byRule: { r: 1 },
      byFault: { 'network:ECONNRESET': 1 },
      byTool: { search: 1 },
    });
    unsubscribe();
    chaos.select('search', context('call-10'))[0]?.begin();
    expect(events).toHaveLength(1);
  });

  it('keeps a throwing listener away from the call and surfaces its error later', () => {
    const chaos = controller({ rules: [{ fault: reset }] });
    const broken = new Error('listener bug');
    chaos.onInjected(() => {
      throw broken;
    });
    const deferred: (() => void)[] = [];
    jest
      .spyOn(globalThis, 'queueMicrotask')
      .mockImplementation((callback) => deferred.push(callback));
    expect(() => chaos.select('search', context('c1'))[0]?.begin()).not.toThrow();
    expect(deferred).toHaveLength(1);
    expect(deferred[0]).toThrow(broken);
  });
});
