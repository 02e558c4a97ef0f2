import {
  DEFAULT_COMPLETION_TOOL,
  type AssistantMessage,
  type ChatModel,
  type ConversationMessage,
  type ConversationToolCall,
  type ToolResultMessage,
  toolCallFingerprint,
} from '@toolshield/core/agent';
import type { AgentModel } from './agent-model.js';

/** A call the script may make. */
export interface ScriptedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One way to get a goal: a call, or calls made one after the other (each after the last succeeded). */
export type ScriptedApproach = ScriptedCall | readonly ScriptedCall[];

/** One thing the task needs, and the ways to get it, best first. */
export interface ScriptedGoal {
  /** What it is, in the model's words: "the weather in Paris". */
  readonly need: string;
  /**
   * Tried in order: after a failure the model moves on to the next approach, and never
   * repeats a failed approach. An approach of several calls may repeat an earlier call after
   * a remedy (list pods, create the missing namespace, list pods again).
   */
  readonly approaches: readonly ScriptedApproach[];
  /** The final answer's sentence about this goal, from the last successful call's output. */
  readonly report: (output: unknown) => string;
  /**
   * The read that tells whether a call of this goal took effect, made next (before any other
   * approach) after a failure that says it may have (`effect: 'unknown'`), never the call
   * again. `effect` picks the effect out of the read's output: found, the goal is done with
   * it (as `report`'s output); not found, the goal moves on to its next approach.
   */
  readonly verify?: {
    readonly call: ScriptedCall;
    readonly effect: (output: unknown) => unknown;
  };
}

/** What the scripted model knows of a task: its goals. It does not read the user's words. */
export interface ScriptedTask {
  readonly goals: readonly ScriptedGoal[];
  /** The tool that ends the run; default `complete`. Its argument is named by `answerArgument`. */
  readonly completionTool?: string;
  /** The completion tool's argument for the final answer; default `answer`. */
  readonly answerArgument?: string;
  /** With no goals: the model's whole answer, a plain reply without tool calls. */
  readonly reply?: string;
}

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Tool call ids are `${idPrefix}_1`, `${idPrefix}_2`, ...; default `call`. Make it unique per run. */
  readonly idPrefix?: string;
}

/** The facts of a `ToolFailure` the model acts on, as the tool result carries them. */
interface FailureFacts {
  readonly error: string;
  readonly errorType: string;
  readonly recoverable: boolean;
  readonly retryCount: number;
  /** `'unknown'`: the call may have taken effect. */
  readonly effect?: string;
}

type GoalState =
  | { readonly kind: 'done'; readonly output: unknown }
  | { readonly kind: 'next'; readonly call: ScriptedCall }
  | { readonly kind: 'out_of_approaches'; readonly tool: string; readonly failure: FailureFacts };

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function failureFacts(content: string): FailureFacts {
  const parsed = parseJson(content) as Partial<FailureFacts> | string;
  if (typeof parsed !== 'object' || parsed === null) {
    return { error: content, errorType: 'unknown', recoverable: false, retryCount: 0 };
  }
  return {
    error: parsed.error ?? content,
    errorType: parsed.errorType ?? 'unknown',
    recoverable: parsed.recoverable === true,
    retryCount: parsed.retryCount ?? 0,
    ...(parsed.effect === undefined ? {} : { effect: parsed.effect }),
  };
}

/** A person's answer ended the call: declined, or nobody decided before it expired. */
function refusedByAPerson(failure: FailureFacts): boolean {
  return failure.errorType === 'approval_denied' || failure.errorType === 'approval_expired';
}

function describeFailure(tool: string, failure: FailureFacts): string {
  if (refusedByAPerson(failure)) return `${tool} did not run: ${failure.error.replace(/\.$/, '')}`;
  const facts = [failure.errorType, failure.recoverable ? 'recoverable' : 'not recoverable'];
  if (failure.effect === 'unknown') facts.push('may have taken effect');
  if (failure.retryCount > 0) facts.push(`after ${failure.retryCount} retries`);
  return `${tool} failed (${facts.join(', ')}): ${failure.error.replace(/\.$/, '')}`;
}

function stepsOf(approach: ScriptedApproach): readonly ScriptedCall[] {
  return Array.isArray(approach) ? approach : [approach as ScriptedCall];
}

/** Where one goal stands while the history is replayed. */
class GoalProgress {
  private approach = 0;
  private step = 0;
  private retriedStep = false;
  /** The failure of a call that may have taken effect, while the goal's `verify` read is due. */
  private unverified?: { tool: string; facts: FailureFacts };
  private output: unknown;
  private failure?: { tool: string; facts: FailureFacts };

  constructor(readonly goal: ScriptedGoal) {}

  /** The call this goal waits for, while it is open. */
  expected(): ScriptedCall | undefined {
    if (this.unverified) return this.goal.verify?.call;
    if (this.failure || this.approach >= this.goal.approaches.length) return undefined;
    const steps = stepsOf(this.goal.approaches[this.approach] as ScriptedApproach);
    return this.step < steps.length ? steps[this.step] : undefined;
  }

  /**
   * Takes the result of the expected call. A call that was interrupted (a `cancelled`
   * result, as a crash leaves it once the history is repaired) is made once more when the
   * result says that is safe (`recoverable`); one whose outcome is unknown is not repeated
   * blindly: the goal's `verify` read comes next when it has one, else the goal moves on to
   * its next approach.
   */
  record(result: ToolResultMessage): void {
    if (this.unverified) return this.recordVerification(result, this.unverified);
    if (!result.isError) {
      this.output = parseJson(result.content);
      this.step += 1;
      this.retriedStep = false;
      return;
    }
    const facts = failureFacts(result.content);
    // A person's no (or their silence) is final: no other way around it is tried.
    if (refusedByAPerson(facts)) {
      this.failure = { tool: result.name, facts };
      return;
    }
    if (facts.errorType === 'cancelled' && facts.recoverable && !this.retriedStep) {
      this.retriedStep = true;
      return;
    }
    if (facts.effect === 'unknown' && this.goal.verify) {
      this.unverified = { tool: result.name, facts };
      return;
    }
    this.moveOn(result.name, facts);
  }

  /** The `verify` read's result: the effect happened (the goal is done) or the goal moves on. */
  private recordVerification(
    result: ToolResultMessage,
    unverified: { tool: string; facts: FailureFacts },
  ): void {
    this.unverified = undefined;
    const effect = result.isError ? undefined : this.goal.verify?.effect(parseJson(result.content));
    if (effect === undefined) return this.moveOn(unverified.tool, unverified.facts);
    this.output = effect;
    this.approach = this.goal.approaches.length;
  }

  private moveOn(tool: string, facts: FailureFacts): void {
    this.approach += 1;
    this.step = 0;
    this.retriedStep = false;
    if (this.approach >= this.goal.approaches.length) {
      this.failure = { tool, facts };
    }
  }

  state(): GoalState {
    if (this.failure) {
      return { kind: 'out_of_approaches', tool: this.failure.tool, failure: this.failure.facts };
    }
    const call = this.expected();
    return call ? { kind: 'next', call } : { kind: 'done', output: this.output };
  }
}

function sameCall(call: ConversationToolCall, scripted: ScriptedCall): boolean {
  return toolCallFingerprint(call) === toolCallFingerprint(scripted);
}

/** Replays the history: which call served which goal, and how it ended. */
function replay(task: ScriptedTask, messages: readonly ConversationMessage[]): GoalProgress[] {
  const goals = task.goals.map((goal) => new GoalProgress(goal));
  const byCallId = new Map<string, GoalProgress>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      const taken = new Set<GoalProgress>();
      for (const call of message.toolCalls ?? []) {
        const goal = goals.find((candidate) => {
          const expected = candidate.expected();
          return !taken.has(candidate) && expected !== undefined && sameCall(call, expected);
        });
        if (goal) {
          taken.add(goal);
          byCallId.set(call.id, goal);
        }
      }
    } else if (message.role === 'tool') {
      byCallId.get(message.toolCallId)?.record(message);
      byCallId.delete(message.toolCallId);
    }
  }
  return goals;
}

function callsSoFar(messages: readonly ConversationMessage[]): number {
  return messages.reduce(
    (count, message) =>
      count + (message.role === 'assistant' ? (message.toolCalls?.length ?? 0) : 0),
    0,
  );
}

/** The failed results of the latest turn: the tool messages after the last assistant message. */
function latestFailures(messages: readonly ConversationMessage[]): string[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return messages
    .slice(lastAssistant + 1)
    .flatMap((message) =>
      message.role === 'tool' && message.isError
        ? [describeFailure(message.name, failureFacts(message.content))]
        : [],
    );
}

/**
 * A deterministic stand-in for an LLM: it does not understand language. It works through a
 * fixed list of goals, reads every tool result (a failure's `errorType`, `recoverable` and
 * retries from the `ToolFailure` payload), and does what the decision prompt asks: after a
 * failure it says CONTINUE and tries the goal's next approach, or, when a goal has none
 * left, says STOP and calls the completion tool with what it has and what failed. A call a
 * person declined, or left undecided until it expired, ends its goal at once: the model says
 * so and stops. It never repeats a call. Swap in `OpenAICompatibleModel` for a real model.
 */
export class ScriptedModel implements AgentModel {
  readonly label =
    'scripted stand-in for an LLM (deterministic, no network, no language understanding)';
  readonly chat: ChatModel = async ({ messages }) => this.reply(messages);
  private readonly completionTool: string;
  private readonly idPrefix: string;

  constructor(
    private readonly task: ScriptedTask,
    options: ScriptedModelOptions = {},
  ) {
    this.completionTool = task.completionTool ?? DEFAULT_COMPLETION_TOOL;
    this.idPrefix = options.idPrefix ?? 'call';
  }

  private reply(messages: readonly ConversationMessage[]): AssistantMessage {
    if (this.task.goals.length === 0) {
      return { role: 'assistant', content: this.task.reply ?? '' };
    }
    const goals = replay(this.task, messages).map((progress) => ({
      goal: progress.goal,
      state: progress.state(),
    }));
    const failures = latestFailures(messages);
    const callNumber = callsSoFar(messages) + 1;

    const stuck = goals.find(({ state }) => state.kind === 'out_of_approaches');
    if (stuck?.state.kind === 'out_of_approaches') {
      const why = describeFailure(stuck.state.tool, stuck.state.failure);
      const content = refusedByAPerson(stuck.state.failure)
        ? `STOP: ${why}. I will not try to get ${stuck.goal.need} another way.`
        : `STOP: ${why}. No other way to get ${stuck.goal.need} is left.`;
      return this.complete(content, this.answer(goals), callNumber);
    }

    const open = goals.flatMap(({ goal, state }) =>
      state.kind === 'next' ? [{ goal, call: state.call }] : [],
    );
    if (open.length === 0) return this.complete('', this.answer(goals), callNumber);

    const next = open.map(({ call }) => call);
    const content =
      failures.length > 0
        ? `CONTINUE: ${failures.join('; ')}. Trying ${next.map((call) => call.name).join(', ')} instead.`
        : `Working on ${open.map(({ goal }) => goal.need).join(', ')}.`;
    return {
      role: 'assistant',
      content,
      toolCalls: next.map((call, index) => this.toolCall(callNumber + index, call)),
    };
  }

  private toolCall(number: number, call: ScriptedCall): ConversationToolCall {
    return {
      id: `${this.idPrefix}_${number}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    };
  }

  private answer(goals: readonly { goal: ScriptedGoal; state: GoalState }[]): string {
    return goals
      .map(({ goal, state }) => {
        if (state.kind === 'done') return goal.report(state.output);
        if (state.kind === 'out_of_approaches')
          return `I could not get ${goal.need}: ${state.failure.error}`;
        return `I did not get to ${goal.need}.`;
      })
      .join(' ');
  }

  private complete(content: string, answer: string, callNumber: number): AssistantMessage {
    const call = this.toolCall(callNumber, {
      name: this.completionTool,
      arguments: { [this.task.answerArgument ?? 'answer']: answer },
    });
    return { role: 'assistant', content, toolCalls: [call] };
  }
}
