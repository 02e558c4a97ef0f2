import { systemClock, type Clock, type ToolCallContext } from '@toolshield/core';
import { assertOptions } from '@toolshield/core/internal';
import type { ChaosFault, FaultInvocation } from '../faults/chaos-fault.js';
import { markChaos } from '../marking/chaos-marker.js';
import { CHAOS_CONTROLLER_OPTIONS_RULE } from '../options/chaos-options.rule.js';
import { deriveSeed, randomSeed } from '../random/seed.js';
import type { ChaosRule } from '../selection/chaos-rule.js';
import { RuleRuntime } from '../selection/rule-runtime.js';
import { ChaosTally, type ChaosCounters } from './chaos-counters.js';
import type { ChaosInjectionEvent, ChaosInjectionListener } from './chaos-injection-event.js';
import { assertChaosAllowed } from './production-guard.js';
import type { ChaosControllerOptions } from './chaos-controller-options.js';

export type { ChaosControllerOptions } from './chaos-controller-options.js';

/**
 * A rule as the controller holds it, with its progress.
 *
 * @publicApi
 */
export interface ChaosRuleStatus {
  readonly id: string;
  readonly rule: ChaosRule;
  /** Calls the rule matched (tool and time window). */
  readonly matchedCalls: number;
  /** Injections it selected. */
  readonly injections: number;
}

/**
 * A fault chosen for one call, ready to run. `begin` counts and announces it; injectors call
 * it right before running the fault, so a fault that never starts (an earlier one in the
 * chain was aborted) is not reported.
 *
 * @publicApi
 */
export interface SelectedFault {
  readonly fault: ChaosFault;
  readonly invocation: FaultInvocation;
  begin(): void;
}

/**
 * Runtime control of fault injection, free of any framework: on/off, rules, counters and
 * `chaos.injected` events. Injectors (`injectChaos`, `withChaos`, the Nest interceptor)
 * ask it which faults a call gets.
 *
 * Off by default; `enable()` refuses when `NODE_ENV` is `production` unless
 * `allowInProduction` is set. Given the same seed, rules and sequence of calls, it selects
 * exactly the same faults with the same parameters; each rule draws from its own stream
 * (derived from the seed and the rule's id), so adding a rule never changes another's draws.
 *
 * @example
 * const chaos = new ChaosController({ seed: 42, rules: [{ tools: 'search', fault: rateLimit() }] });
 * chaos.enable();
 *
 * @publicApi
 */
export class ChaosController {
  readonly clock: Clock;
  private currentSeed: number;
  private active = false;
  private readonly allowInProduction: boolean;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly runtimes = new Map<string, RuleRuntime>();
  private readonly listeners = new Set<ChaosInjectionListener>();
  private tally = new ChaosTally();
  private autoIds = 0;

  constructor(options: ChaosControllerOptions = {}) {
    assertOptions(CHAOS_CONTROLLER_OPTIONS_RULE, options, 'ChaosController options');
    this.clock = options.clock ?? systemClock;
    this.currentSeed = (options.seed ?? randomSeed()) >>> 0;
    this.allowInProduction = options.allowInProduction ?? false;
    this.env = options.env ?? process.env;
    for (const rule of options.rules ?? []) this.addRule(rule);
    if (options.enabled === true) this.enable();
  }

  /** The run's seed (unsigned 32-bit): log it, and pass it back to replay the run. */
  get seed(): number {
    return this.currentSeed;
  }

  get enabled(): boolean {
    return this.active;
  }

  /** Switches injection on. Throws `ChaosInProductionError` in production unless allowed. */
  enable(): void {
    assertChaosAllowed(this.env, this.allowInProduction);
    this.active = true;
  }

  /** Switches injection off: calls pass straight through. Rules and counters are kept. */
  disable(): void {
    this.active = false;
  }

  /** Adds a rule at the end and returns its id. Throws when the id is taken. */
  addRule(rule: ChaosRule): string {
    const id = rule.name ?? this.nextAutoId();
    if (this.runtimes.has(id)) throw new Error(`A chaos rule named "${id}" already exists`);
    this.runtimes.set(id, this.createRuntime(id, rule));
    return id;
  }

  /** Removes a rule; returns whether it existed. */
  removeRule(id: string): boolean {
    return this.runtimes.delete(id);
  }

  /**
   * Replaces a rule in place (same position and id), starting its counters and random
   * streams afresh. Throws when there is no such rule.
   */
  replaceRule(id: string, rule: ChaosRule): void {
    if (!this.runtimes.has(id)) throw new Error(`There is no chaos rule named "${id}"`);
    this.runtimes.set(id, this.createRuntime(id, { ...rule, name: id }));
  }

  /** Removes every rule and adds `rules`. */
  setRules(rules: readonly ChaosRule[]): void {
    this.runtimes.clear();
    this.autoIds = 0;
    for (const rule of rules) this.addRule(rule);
  }

  /** The rules in the order they apply, with their progress. */
  rules(): readonly ChaosRuleStatus[] {
    return [...this.runtimes.values()].map((runtime) => ({
      id: runtime.id,
      rule: runtime.rule,
      matchedCalls: runtime.matchedCalls,
      injections: runtime.injections,
    }));
  }

  /** A snapshot of the counters. */
  counters(): ChaosCounters {
    return this.tally.snapshot();
  }

  /**
   * Zeroes counters and restarts every rule's random streams (from `seed` when given), so
   * the same calls are injected exactly as in the first run.
   */
  reset(seed?: number): void {
    if (seed !== undefined) this.currentSeed = seed >>> 0;
    this.tally = new ChaosTally();
    for (const runtime of [...this.runtimes.values()]) {
      this.runtimes.set(runtime.id, this.createRuntime(runtime.id, runtime.rule));
    }
  }

  /** Calls `listener` for every injection; returns the function that unsubscribes it. */
  onInjected(listener: ChaosInjectionListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * The faults this call gets, in rule order (nothing while disabled). Counts the call;
   * each fault is counted and announced when its `begin` is called.
   */
  select(toolName: string, context: ToolCallContext): readonly SelectedFault[] {
    if (!this.active) return [];
    this.tally.countCall();
    const now = this.clock.now();
    const selected: SelectedFault[] = [];
    for (const runtime of this.runtimes.values()) {
      const match = runtime.select(toolName, now);
      if (match === undefined) continue;
      const mark = { fault: runtime.fault.name, rule: runtime.id };
      const invocation: FaultInvocation = {
        toolName,
        context,
        clock: this.clock,
        random: runtime.random,
        ruleId: runtime.id,
        toolCallIndex: match.toolCallIndex,
        mark: (value) => markChaos(value, mark),
      };
      if (runtime.fault.applies?.(invocation) === false) continue;
      runtime.recordInjection();
      selected.push({
        fault: runtime.fault,
        invocation,
        begin: () => this.announce(runtime, toolName, context),
      });
    }
    return selected;
  }

  private announce(runtime: RuleRuntime, toolName: string, context: ToolCallContext): void {
    this.tally.countInjection(runtime.id, runtime.fault.name, toolName);
    const event: ChaosInjectionEvent = {
      type: 'chaos.injected',
      at: this.clock.now(),
      callId: context.callId,
      tool: toolName,
      fault: runtime.fault.name,
      rule: runtime.id,
      attempt: context.attempt,
      chaos: true,
    };
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // A broken listener must not change what the call sees; surface it on its own turn.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  private createRuntime(id: string, rule: ChaosRule): RuleRuntime {
    return new RuleRuntime(id, rule, deriveSeed(this.currentSeed, id));
  }

  private nextAutoId(): string {
    let id: string;
    do id = `rule-${++this.autoIds}`;
    while (this.runtimes.has(id));
    return id;
  }
}
