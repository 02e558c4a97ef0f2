import type { ToolFailure } from '../../results/index.js';
import {
  DEFAULT_TERMINATING_TOOLS,
  runToolBatch,
  type ToolBatchEntry,
} from '../batch/run-tool-batch.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type { AssistantMessage, ToolResultMessage } from '../conversation/conversation-message.js';
import { failuresToPromptFor } from '../decision/decision-prompt-policy.js';
import {
  DEFAULT_COMPLETION_TOOL,
  buildDecisionGuidance,
  buildDecisionPrompt,
} from '../decision/decision-prompt.js';
import { LoopGuard, type LoopGuardTrip } from '../guards/loop-guard.js';
import { ToolCallLedger } from '../ledger/tool-call-ledger.js';
import {
  InMemoryToolCallLedgerStore,
  type ToolCallLedgerStore,
} from '../ledger/tool-call-ledger-store.js';
import { synthesizeFailure } from '../outcomes/synthesize-failure.js';
import {
  renderToolOutcomeContent,
  toToolResultMessage,
  type ToolOutcomeRenderer,
} from '../outcomes/tool-result-message.js';
import type { AgentRunResult, AgentStopReason } from './agent-run-result.js';
import type { ChatModelTool } from './chat-model.js';
import { answeringCompletion, completionToolDefinition } from './completion-tool.js';
import { normaliseReply } from './normalise-reply.js';
import {
  applyDecisions,
  awaitingIn,
  isAwaitingApproval,
  keepBatchFailures,
  placeholderFor,
  resumedTurn,
  suspendedResult,
  type ResumedTurn,
  type TurnFacts,
} from './approval-pause.js';
import { assertOptions } from '../../options/assert-options.js';
import { AGENT_RUNNER_OPTIONS_RULE } from './agent-runner-options.rule.js';
import type { AgentRunnerOptions } from './agent-runner-options.js';
import type { AgentRunRequest } from './agent-run-request.js';

export type { AgentRunnerOptions } from './agent-runner-options.js';
export type { AgentRunRequest } from './agent-run-request.js';

/** A call the run's own abort cut or kept from starting: left to the repair, like a crash. */
function cutByAbort(entry: ToolBatchEntry, signal: AbortSignal | undefined): boolean {
  const { outcome } = entry;
  return signal?.aborted === true && !outcome.success && outcome.errorType === 'cancelled';
}

interface TurnOutcome extends TurnFacts {
  readonly refusal?: LoopGuardTrip;
  /** Calls of the batch waiting for approval: the run suspends. */
  readonly awaiting?: number;
}

const ABORTED: AgentStopReason = { code: 'aborted', message: 'The run was cancelled.' };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function defaultStopAnswer(reason: AgentStopReason, lastFailure: ToolFailure | undefined): string {
  const last = lastFailure ? ` Last error (${lastFailure.tool}): ${lastFailure.error}` : '';
  return `I stopped before finishing: ${reason.message}${last}`;
}

/**
 * A ReAct loop over the agent-loop helpers: repair the history, ask the model, run its tool
 * calls as a batch, record every result, add the decision prompt per policy, apply the loop
 * guards, repeat. It never throws: guards and aborts end the run as `stopped` with a final
 * answer, a failing model or store as `error`.
 *
 * Its guidance tells the model to STOP by calling `completionTool`; when `tools` has none of
 * that name, the runner offers one itself (`completionToolDefinition`) and answers its calls:
 * the call's `answer` ends the run. Every call is run with the run's `conversationId`, so the
 * executor can scope idempotency keys by conversation.
 *
 * @example
 * const runner = new AgentRunner({ model, executor: (call, o) => toolExecutor.execute(call, o) });
 * const result = await runner.run({ conversationId: 'c1', input: 'Weather in Paris?' });
 *
 * @publicApi
 */
export class AgentRunner {
  private readonly store: ToolCallLedgerStore;
  private readonly completionTool: string;
  private readonly render: ToolOutcomeRenderer;
  /** What the model is offered: the app's tools, and the completion tool if they lack it. */
  private readonly tools: readonly ChatModelTool[];
  private readonly executor: ToolCallExecutor;

  constructor(private readonly options: AgentRunnerOptions) {
    assertOptions(AGENT_RUNNER_OPTIONS_RULE, options, 'AgentRunnerOptions');
    this.store = options.store ?? new InMemoryToolCallLedgerStore();
    this.completionTool = options.completionTool ?? DEFAULT_COMPLETION_TOOL;
    this.render = options.renderOutcome ?? renderToolOutcomeContent;
    const tools = options.tools ?? [];
    const ownCompletion = !tools.some((tool) => tool.name === this.completionTool);
    this.tools = ownCompletion ? [...tools, completionToolDefinition(this.completionTool)] : tools;
    this.executor = ownCompletion
      ? answeringCompletion(this.completionTool, options.executor)
      : options.executor;
  }

  /** Runs the conversation until it completes, a guard stops it, or the model fails. */
  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    const progress = { steps: 0, ledger: undefined as ToolCallLedger | undefined };
    try {
      const ledger = await ToolCallLedger.open(request.conversationId, this.store);
      progress.ledger = ledger;
      this.begin(ledger, request.input);
      const resumed = applyDecisions(ledger, request.approvalOutcomes ?? [], this.render);
      if (awaitingIn(ledger.messages).length > 0) return await this.suspend(ledger, 0);
      return await this.loop(ledger, request.signal, progress, resumed);
    } catch (error) {
      return {
        status: 'error',
        reason: { code: 'internal_error', message: describeError(error) },
        finalAnswer: '',
        steps: progress.steps,
        messages: progress.ledger?.messages ?? [],
      };
    }
  }

  private begin(ledger: ToolCallLedger, input: string | undefined): void {
    if (ledger.messages.length === 0) {
      const parts = [this.options.systemPrompt];
      if (this.options.includeGuidance ?? true)
        parts.push(buildDecisionGuidance(this.completionTool));
      const system = parts.filter((part) => part).join('\n\n');
      if (system) ledger.append({ role: 'system', content: system });
    }
    if (input !== undefined) ledger.append({ role: 'user', content: input });
  }

  private async loop(
    ledger: ToolCallLedger,
    signal: AbortSignal | undefined,
    progress: { steps: number },
    resumed: ResumedTurn | undefined,
  ): Promise<AgentRunResult> {
    const guard = new LoopGuard(this.options.guards);
    let lastFailure: ToolFailure | undefined;
    if (resumed) {
      const turn = resumedTurn(resumed, ledger.messages, guard, this.terminatingTools());
      lastFailure = turn.failures.at(-1);
      const ended = await this.afterTurn(ledger, turn, guard, progress.steps, lastFailure);
      if (ended) return ended;
    }
    for (;;) {
      this.repair(ledger);
      const trip = signal?.aborted ? ABORTED : guard.checkSteps(progress.steps);
      if (trip) return this.stop(ledger, trip, progress.steps, lastFailure);
      await ledger.save();

      progress.steps += 1;
      let reply: AssistantMessage;
      try {
        reply = await this.options.model({
          messages: [...ledger.messages],
          tools: this.tools,
          signal,
        });
      } catch (error) {
        const reason: AgentStopReason = {
          code: 'model_error',
          message: `The model request failed: ${describeError(error)}`,
        };
        return this.finish(ledger, 'error', reason, '', progress.steps);
      }

      const assistant = normaliseReply(reply, ledger.messages);
      ledger.append(assistant);
      await ledger.save();
      const calls = assistant.toolCalls ?? [];
      if (calls.length === 0) {
        const reason: AgentStopReason = { code: 'answered', message: 'The model answered.' };
        return this.finish(ledger, 'completed', reason, assistant.content, progress.steps);
      }

      const turn = await this.runTurn(assistant, ledger, guard, signal);
      await ledger.save();
      lastFailure = turn.failures.at(-1) ?? lastFailure;
      const ended = await this.afterTurn(ledger, turn, guard, progress.steps, lastFailure);
      if (ended) return ended;
    }
  }

  /**
   * Ends the run after a turn when it must: suspended for approval, a terminating call, a
   * guard; otherwise adds the decision prompt the policy asks for, and the loop goes on.
   */
  private async afterTurn(
    ledger: ToolCallLedger,
    turn: TurnOutcome,
    guard: LoopGuard,
    steps: number,
    lastFailure: ToolFailure | undefined,
  ): Promise<AgentRunResult | undefined> {
    if (turn.awaiting) return this.suspend(ledger, steps);
    if (turn.terminatedBy) {
      const { tool, answer } = turn.terminatedBy;
      const reason: AgentStopReason = {
        code: 'terminating_tool',
        tool,
        message: `'${tool}' ended the run.`,
      };
      return this.finish(ledger, 'completed', reason, answer, steps);
    }
    const stopTrip = turn.refusal ?? guard.checkFailures();
    if (stopTrip) return this.stop(ledger, stopTrip, steps, lastFailure);
    const prompted = failuresToPromptFor(
      this.options.decisionPrompt ?? 'every-failure',
      turn.failures,
      guard.consecutiveFailures,
    );
    if (prompted.length > 0) {
      ledger.append({ role: 'user', content: buildDecisionPrompt(prompted, this.completionTool) });
    }
    return undefined;
  }

  private terminatingTools(): readonly string[] {
    return (
      this.options.batch?.terminatingTools ?? [...DEFAULT_TERMINATING_TOOLS, this.completionTool]
    );
  }

  /** Saves the conversation and reports the calls it waits for. */
  private async suspend(ledger: ToolCallLedger, steps: number): Promise<AgentRunResult> {
    await ledger.save();
    return suspendedResult(ledger.messages, steps);
  }

  /** Runs the calls the guard admits; the rest get `limit_exceeded` results without running. */
  private async runTurn(
    assistant: AssistantMessage,
    ledger: ToolCallLedger,
    guard: LoopGuard,
    signal: AbortSignal | undefined,
  ): Promise<TurnOutcome> {
    const calls = assistant.toolCalls ?? [];
    let refusal: LoopGuardTrip | undefined;
    let admitted = 0;
    for (const call of calls) {
      refusal = guard.admit(call);
      if (refusal) break;
      admitted += 1;
    }

    const { conversationId } = ledger;
    const executor: ToolCallExecutor = (call, options) =>
      this.executor(call, { ...options, conversationId });
    const placeholders: ToolResultMessage[] = [];
    const batch = await runToolBatch(calls.slice(0, admitted), executor, {
      ...this.options.batch,
      terminatingTools: this.terminatingTools(),
      signal,
      onEntry: (entry) => {
        if (cutByAbort(entry, signal)) return;
        const call = { id: entry.callId, name: entry.outcome.tool };
        if (isAwaitingApproval(entry.outcome)) {
          placeholders.push(placeholderFor(call, entry.outcome, this.render));
          ledger.append(placeholders[placeholders.length - 1]);
        } else {
          ledger.append(toToolResultMessage(call, entry.outcome, this.render));
        }
        // A checkpoint so a crash mid-batch keeps the results already in; the caller awaits
        // the save after the batch, which reports a store that keeps failing.
        ledger.save().catch(() => undefined);
      },
    });

    for (const call of calls.slice(admitted)) {
      const failure = synthesizeFailure({
        tool: call.name,
        callId: call.id,
        errorType: 'limit_exceeded',
        error: `Not run: ${refusal?.message ?? 'a call limit was reached.'}`,
      });
      ledger.append(toToolResultMessage(call, failure, this.render));
    }

    const counted = batch.entries.filter(
      (entry) =>
        entry.disposition !== 'skipped' &&
        !cutByAbort(entry, signal) &&
        !isAwaitingApproval(entry.outcome),
    );
    for (const entry of counted) guard.record(entry.call, entry.outcome);
    const failures = counted.flatMap((entry) => (entry.outcome.success ? [] : [entry.outcome]));
    if (placeholders.length > 0) keepBatchFailures(ledger, placeholders[0], failures);
    const terminated = batch.terminatedBy;
    return {
      failures,
      ...(terminated
        ? {
            terminatedBy: {
              tool: terminated.call.name,
              answer: this.terminatingAnswer(terminated, assistant),
            },
          }
        : {}),
      ...(refusal ? { refusal } : {}),
      awaiting: placeholders.length,
    };
  }

  private terminatingAnswer(entry: ToolBatchEntry, assistant: AssistantMessage): string {
    const output = entry.outcome.success ? entry.outcome.output : undefined;
    if (typeof output === 'string' && output !== '') return output;
    return assistant.content || this.render(entry.outcome);
  }

  private repair(ledger: ToolCallLedger): void {
    ledger.repair({ renderOutcome: this.render, safeToRepeat: this.options.safeToRepeat });
  }

  private async stop(
    ledger: ToolCallLedger,
    reason: AgentStopReason,
    steps: number,
    lastFailure: ToolFailure | undefined,
  ): Promise<AgentRunResult> {
    this.repair(ledger);
    const answer = (this.options.stopAnswer ?? defaultStopAnswer)(reason, lastFailure);
    ledger.append({ role: 'assistant', content: answer });
    return this.finish(ledger, 'stopped', reason, answer, steps);
  }

  private async finish(
    ledger: ToolCallLedger,
    status: AgentRunResult['status'],
    reason: AgentStopReason,
    finalAnswer: string,
    steps: number,
  ): Promise<AgentRunResult> {
    await ledger.save();
    return { status, reason, finalAnswer, steps, messages: [...ledger.messages] };
  }
}
