import {
  DEFAULT_COMPLETION_TOOL,
  toolCallFingerprint,
  type AssistantMessage,
  type ChatModel,
  type ConversationMessage,
  type ConversationToolCall,
  type ToolResultMessage,
} from '@toolshield/core';
import type { AgentModel } from './agent-model.js';

/** A call the script may make. */
export interface ScriptedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One thing the task needs, and the ways to get it, best first. */
export interface ScriptedGoal {
  /** What it is, in the model's words: "the weather in Paris". */
  readonly need: string;
  /** Tried in order: after a failure the model moves on to the next one, and never repeats a call. */
  readonly approaches: readonly ScriptedCall[];
  /** The final answer's sentence about this goal, from the successful call's output. */
  readonly report: (output: unknown) => string;
}

/** What the scripted model knows of a task: its goals. It does not read the user's words. */
export interface ScriptedTask {
  readonly goals: readonly ScriptedGoal[];
  /** The tool that ends the run; default `complete`. */
  readonly completionTool?: string;
}

/** The facts of a `ToolFailure` the model acts on, as the tool result carries them. */
interface FailureFacts {
  readonly error: string;
  readonly errorType: string;
  readonly recoverable: boolean;
  readonly retryCount: number;
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
  };
}

function describeFailure(tool: string, failure: FailureFacts): string {
  const facts = [failure.errorType, failure.recoverable ? 'recoverable' : 'not recoverable'];
  if (failure.retryCount > 0) facts.push(`after ${failure.retryCount} retries`);
  return `${tool} failed (${facts.join(', ')}): ${failure.error.replace(/\.$/, '')}`;
}

/** Every tool result of the history, by the fingerprint (name and arguments) of its call. */
function resultsByCall(messages: readonly ConversationMessage[]): Map<string, ToolResultMessage> {
  const calls = new Map<string, ConversationToolCall>();
  const results = new Map<string, ToolResultMessage>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    } else if (message.role === 'tool') {
      const call = calls.get(message.toolCallId);
      if (call) results.set(toolCallFingerprint(call), message);
    }
  }
  return results;
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

function goalState(goal: ScriptedGoal, results: Map<string, ToolResultMessage>): GoalState {
  const tried = goal.approaches.map((call) => ({
    call,
    result: results.get(toolCallFingerprint(call)),
  }));
  const success = tried.find(({ result }) => result && !result.isError);
  if (success?.result) return { kind: 'done', output: parseJson(success.result.content) };
  const next = tried.find(({ result }) => !result);
  if (next) return { kind: 'next', call: next.call };
  const last = tried.at(-1);
  return {
    kind: 'out_of_approaches',
    tool: last?.call.name ?? '',
    failure: failureFacts(last?.result?.content ?? 'No approach was given.'),
  };
}

/**
 * A deterministic stand-in for an LLM: it does not understand language. It works through a
 * fixed list of goals, reads every tool result (a failure's `errorType`, `recoverable` and
 * retries from the `ToolFailure` payload), and does what the decision prompt asks: after a
 * failure it says CONTINUE and tries the goal's next approach, or, when a goal has none
 * left, says STOP and calls the completion tool with what it has and what failed. It never
 * repeats a call. Swap in `OpenAICompatibleModel` for a real model.
 */
export class ScriptedModel implements AgentModel {
  readonly label =
    'scripted stand-in for an LLM (deterministic, no network, no language understanding)';
  readonly chat: ChatModel = async ({ messages }) => this.reply(messages);
  private readonly completionTool: string;

  constructor(private readonly task: ScriptedTask) {
    this.completionTool = task.completionTool ?? DEFAULT_COMPLETION_TOOL;
  }

  private reply(messages: readonly ConversationMessage[]): AssistantMessage {
    const results = resultsByCall(messages);
    const goals = this.task.goals.map((goal) => ({ goal, state: goalState(goal, results) }));
    const failures = latestFailures(messages);
    const callNumber = callsSoFar(messages) + 1;

    const stuck = goals.find(({ state }) => state.kind === 'out_of_approaches');
    if (stuck?.state.kind === 'out_of_approaches') {
      const why = describeFailure(stuck.state.tool, stuck.state.failure);
      const content = `STOP: ${why}. No other way to get ${stuck.goal.need} is left.`;
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
      toolCalls: next.map((call, index) => ({
        id: `call_${callNumber + index}`,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      })),
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
    const call = {
      id: `call_${callNumber}`,
      name: this.completionTool,
      arguments: JSON.stringify({ answer }),
    };
    return { role: 'assistant', content, toolCalls: [call] };
  }
}
