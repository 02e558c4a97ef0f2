import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';
import { toolCallFingerprint } from './canonical-json.js';
import { assertOptions } from '../../options/assert-options.js';
import { LOOP_GUARD_OPTIONS_RULE } from './loop-guard-options.rule.js';
import type { LoopGuardOptions } from './loop-guard-options.js';

export type { LoopGuardOptions } from './loop-guard-options.js';

/** @publicApi */
export type LoopGuardCode =
  'max_steps' | 'consecutive_failures' | 'repeated_failure' | 'run_call_limit' | 'tool_call_limit';

/** Why a guard ended the run. @publicApi */
export interface LoopGuardTrip {
  readonly code: LoopGuardCode;
  /** One sentence, shown to the user in the final answer. */
  readonly message: string;
}

/**
 * Counts steps, calls and failures of one run and says when a limit is reached. It never
 * throws; the runner turns a trip into a graceful stop.
 *
 * @publicApi
 */
export class LoopGuard {
  private readonly maxSteps: number;
  private readonly maxConsecutiveFailures: number;
  private readonly maxRepeatedFailures: number;
  private readonly maxCallsPerRun: number;
  private callsInRun = 0;
  private failuresInRow = 0;
  private readonly callsPerTool = new Map<string, number>();
  private readonly failuresPerFingerprint = new Map<string, number>();
  private repeated: { tool: string; count: number } | undefined;

  constructor(private readonly options: LoopGuardOptions = {}) {
    assertOptions(LOOP_GUARD_OPTIONS_RULE, options, 'LoopGuardOptions');
    this.maxSteps = options.maxSteps ?? 20;
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? 5;
    this.maxRepeatedFailures = options.maxRepeatedFailures ?? 3;
    this.maxCallsPerRun = options.maxCallsPerRun ?? 50;
  }

  /** Failed calls in a row so far. */
  get consecutiveFailures(): number {
    return this.failuresInRow;
  }

  /** Before a model request: whether `stepsTaken` requests already used up the budget. */
  checkSteps(stepsTaken: number): LoopGuardTrip | undefined {
    if (stepsTaken < this.maxSteps) return undefined;
    return { code: 'max_steps', message: `Reached the step limit (${this.maxSteps}).` };
  }

  /** Before a call runs: counts it, or says which call limit it would exceed (not counted). */
  admit(call: ToolCallRequest): LoopGuardTrip | undefined {
    if (this.callsInRun >= this.maxCallsPerRun) {
      return {
        code: 'run_call_limit',
        message: `Reached the limit of ${this.maxCallsPerRun} tool calls per run.`,
      };
    }
    const used = this.callsPerTool.get(call.name) ?? 0;
    const limit = this.toolLimit(call.name);
    if (used >= limit) {
      return {
        code: 'tool_call_limit',
        message: `Reached the limit of ${limit} calls to '${call.name}' per run.`,
      };
    }
    this.callsInRun += 1;
    this.callsPerTool.set(call.name, used + 1);
    return undefined;
  }

  /** After a call: updates the failure counts with its outcome. */
  record(call: ToolCallRequest, outcome: ToolOutcome): void {
    const fingerprint = toolCallFingerprint(call);
    if (outcome.success) {
      this.failuresInRow = 0;
      this.failuresPerFingerprint.delete(fingerprint);
      return;
    }
    this.failuresInRow += 1;
    const count = (this.failuresPerFingerprint.get(fingerprint) ?? 0) + 1;
    this.failuresPerFingerprint.set(fingerprint, count);
    if (count >= this.maxRepeatedFailures) this.repeated ??= { tool: call.name, count };
  }

  /** After a turn's outcomes are recorded: whether the failures call for a stop. */
  checkFailures(): LoopGuardTrip | undefined {
    if (this.repeated) {
      return {
        code: 'repeated_failure',
        message: `'${this.repeated.tool}' failed ${this.repeated.count} times with the same arguments.`,
      };
    }
    if (this.failuresInRow >= this.maxConsecutiveFailures) {
      return {
        code: 'consecutive_failures',
        message: `${this.failuresInRow} tool calls in a row failed.`,
      };
    }
    return undefined;
  }

  private toolLimit(tool: string): number {
    const limits = this.options.maxCallsPerTool;
    if (typeof limits === 'number') return limits;
    return limits && Object.hasOwn(limits, tool) ? limits[tool] : Infinity;
  }
}
