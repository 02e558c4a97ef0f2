import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';
import { synthesizeFailure } from '../outcomes/synthesize-failure.js';
import { forEachWithConcurrency } from './for-each-with-concurrency.js';
import type { ToolCallExecutor } from './tool-call-executor.js';
import { assertOptions } from '../../options/assert-options.js';
import { TOOL_BATCH_OPTIONS_RULE } from './tool-batch-options.rule.js';
import type { ToolBatchEntry, ToolBatchOptions } from './tool-batch-options.js';

export type {
  ToolBatchDisposition,
  ToolBatchEntry,
  ToolBatchOptions,
} from './tool-batch-options.js';

/** Tools that end a turn by default: Suna's `ask`/`complete`, Cline's `attempt_completion`. @publicApi */
export const DEFAULT_TERMINATING_TOOLS: readonly string[] = Object.freeze([
  'ask',
  'complete',
  'attempt_completion',
]);

/** @publicApi */
export interface ToolBatchResult {
  /** Exactly one entry per call, in call order. */
  readonly entries: readonly ToolBatchEntry[];
  /** The terminating call that ended the batch, if one did. */
  readonly terminatedBy?: ToolBatchEntry;
}

function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isToolOutcomeShaped(value: unknown): value is ToolOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const { success, errorType } = value as { success?: unknown; errorType?: unknown };
  return success === true || (success === false && typeof errorType === 'string');
}

function safeToRunTogether(options: ToolBatchOptions, call: ToolCallRequest): boolean {
  try {
    return options.isConcurrencySafe?.(call) ?? true;
  } catch {
    return false;
  }
}

/** Index groups run one after another; the calls inside a group run together. */
function planGroups(
  calls: readonly ToolCallRequest[],
  options: ToolBatchOptions,
  isTerminating: (call: ToolCallRequest) => boolean,
): number[][] {
  if (options.strategy !== 'parallel') return calls.map((_, index) => [index]);
  const groups: number[][] = [];
  let together: number[] | undefined;
  calls.forEach((call, index) => {
    if (isTerminating(call) || !safeToRunTogether(options, call)) {
      together = undefined;
      groups.push([index]);
      return;
    }
    if (!together) groups.push((together = []));
    together.push(index);
  });
  return groups;
}

async function executeCall(
  call: ToolCallRequest,
  callId: string,
  executor: ToolCallExecutor,
  signal: AbortSignal | undefined,
): Promise<ToolBatchEntry> {
  const tool = hasText(call?.name) ? call.name : '';
  if (!tool || !hasText(call.id)) {
    const missing = tool ? 'an id' : 'a tool name';
    const outcome = synthesizeFailure({
      tool,
      callId,
      errorType: 'invalid_input',
      error: `The tool call has no ${missing}, so it was not run.`,
      suggestions: ['Call the tool again with its name and arguments.'],
    });
    return { call, callId, outcome, disposition: 'rejected' };
  }
  try {
    const outcome: unknown = await executor(call, { signal });
    if (isToolOutcomeShaped(outcome)) return { call, callId, outcome, disposition: 'executed' };
  } catch {
    // Reported below like a missing outcome: the executor broke its never-reject contract.
  }
  const outcome = synthesizeFailure({
    tool,
    callId,
    errorType: 'internal',
    error: `Running '${tool}' failed unexpectedly; no result was produced.`,
    attempts: 1,
  });
  return { call, callId, outcome, disposition: 'executed' };
}

function skip(call: ToolCallRequest, callId: string, why: string): ToolBatchEntry {
  const outcome = synthesizeFailure({
    tool: hasText(call?.name) ? call.name : '',
    callId,
    errorType: 'cancelled',
    error: `Not run: ${why}.`,
    suggestions: ['Call it again if it is still needed.'],
  });
  return { call, callId, outcome, disposition: 'skipped' };
}

/**
 * Runs one model turn's tool calls and returns exactly one entry per call, in call order.
 * One failure never cancels its siblings. A terminating tool that succeeds ends the batch:
 * every later call gets a `cancelled` failure saying it was not run and why. In `parallel`
 * mode a terminating call runs alone, after the calls before it, for the same reason. Never
 * rejects: an executor that rejects, or returns something that is not an outcome, yields an
 * `internal` failure; a call without id or name yields `invalid_input` and is not run.
 *
 * @publicApi
 */
export async function runToolBatch(
  calls: readonly ToolCallRequest[],
  executor: ToolCallExecutor,
  options: ToolBatchOptions = {},
): Promise<ToolBatchResult> {
  assertOptions(TOOL_BATCH_OPTIONS_RULE, options, 'ToolBatchOptions');
  const terminating = new Set(options.terminatingTools ?? DEFAULT_TERMINATING_TOOLS);
  const isTerminating = (call: ToolCallRequest) =>
    hasText(call?.name) && terminating.has(call.name);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4) || 1);
  const entries: ToolBatchEntry[] = new Array<ToolBatchEntry>(calls.length);
  let terminatedBy: ToolBatchEntry | undefined;

  const settle = (index: number, entry: ToolBatchEntry) => {
    entries[index] = entry;
    try {
      options.onEntry?.(entry, index);
    } catch {
      // A failing observer must not cost a call its result.
    }
  };

  for (const group of planGroups(calls, options, isTerminating)) {
    await forEachWithConcurrency(group, concurrency, async (index) => {
      const call = calls[index];
      const callId = hasText(call?.id) ? call.id : `unidentified_call_${index}`;
      if (terminatedBy) {
        const ender = `'${terminatedBy.call.name}' (call ${terminatedBy.callId}) ended the turn first`;
        settle(index, skip(call, callId, ender));
      } else if (options.signal?.aborted) {
        settle(index, skip(call, callId, 'the run was cancelled before this call started'));
      } else {
        settle(index, await executeCall(call, callId, executor, options.signal));
      }
    });
    terminatedBy ??= group
      .map((index) => entries[index])
      .find(
        (entry) =>
          entry.disposition === 'executed' && entry.outcome.success && isTerminating(entry.call),
      );
  }
  return { entries, ...(terminatedBy ? { terminatedBy } : {}) };
}
