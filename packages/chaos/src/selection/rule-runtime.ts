import { assertOptions } from '@toolshield/core/internal';
import type { ChaosFault } from '../faults/chaos-fault.js';
import { CHAOS_RULE_RULE } from '../options/chaos-rule.rule.js';
import { createRuleRandomStreams, type RandomSource } from '../random/random-stream.js';
import type { ChaosRule } from './chaos-rule.js';
import { compileToolMatcher } from './tool-matcher.js';

/** A call the rule matched and may inject. */
export interface RuleMatch {
  /** 1-based count of this rule's matched calls of this tool. */
  readonly toolCallIndex: number;
}

/**
 * A rule with its running state: matched-call counters and its random streams. One
 * selection draw is taken for every matched call, whatever the other conditions say, so
 * the k-th matched call always meets the same draw for a given seed.
 */
export class RuleRuntime {
  readonly fault: ChaosFault;
  readonly random: RandomSource;
  private readonly matchesTool: (toolName: string) => boolean;
  private readonly activeFrom: number;
  private readonly activeUntil: number;
  private readonly selectionDraw: RandomSource;
  private readonly callsByTool = new Map<string, number>();
  private matched = 0;
  private injected = 0;

  constructor(
    readonly id: string,
    readonly rule: ChaosRule,
    seed: number,
  ) {
    assertOptions(CHAOS_RULE_RULE, rule, `chaos rule "${id}"`);
    this.fault = rule.fault;
    this.matchesTool = compileToolMatcher(rule.tools);
    this.activeFrom = toMs(rule.activeFrom) ?? Number.NEGATIVE_INFINITY;
    this.activeUntil = toMs(rule.activeUntil) ?? Number.POSITIVE_INFINITY;
    const streams = createRuleRandomStreams(rule.seed ?? seed);
    this.selectionDraw = streams.selection;
    this.random = streams.values;
  }

  /** Calls the rule matched so far. */
  get matchedCalls(): number {
    return this.matched;
  }

  /** Injections counted so far. */
  get injections(): number {
    return this.injected;
  }

  /**
   * Counts the call when the rule matches it and returns the match when every selection
   * condition holds; `undefined` otherwise. The fault's own `applies` is checked by the
   * caller, which then confirms with {@link recordInjection}.
   */
  select(toolName: string, nowMs: number): RuleMatch | undefined {
    if (!this.matchesTool(toolName)) return undefined;
    if (nowMs < this.activeFrom || nowMs >= this.activeUntil) return undefined;
    const count = ++this.matched;
    const toolCallIndex = (this.callsByTool.get(toolName) ?? 0) + 1;
    this.callsByTool.set(toolName, toolCallIndex);
    const draw = this.selectionDraw();
    const { firstN, everyNth, maxInjections, probability = 1 } = this.rule;
    if (firstN !== undefined && count > firstN) return undefined;
    if (everyNth !== undefined && count % everyNth !== 0) return undefined;
    if (maxInjections !== undefined && this.injected >= maxInjections) return undefined;
    if (draw >= probability) return undefined;
    return { toolCallIndex };
  }

  /** Counts one injection against `maxInjections`. */
  recordInjection(): void {
    this.injected++;
  }
}

function toMs(time: number | Date | undefined): number | undefined {
  return time instanceof Date ? time.getTime() : time;
}
