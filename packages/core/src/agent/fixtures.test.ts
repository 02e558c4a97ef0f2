/**
 * Shared fakes for the agent specs (the `.test.ts` suffix keeps it out of the build and out of
 * Jest's test match).
 */
import { TOOL_ERROR_TYPE_TRAITS, type ToolErrorType } from '../errors/index.js';
import type { ToolCallRequest, ToolFailure, ToolResult } from '../results/index.js';
import type { ConversationMessage } from './conversation/conversation-message.js';
import { toAnthropicMessages } from './conversation/anthropic-messages.js';
import { toOpenAIMessages } from './conversation/openai-messages.js';
import type { ChatModel, ChatModelRequest } from './runner/chat-model.js';
import type { AssistantMessage } from './conversation/conversation-message.js';
import type { HistoryViolation } from './validation/history-violation.js';
import { validateAnthropicHistory } from './validation/validate-anthropic-history.js';
import { validateOpenAIHistory } from './validation/validate-openai-history.js';

export function succeeded(call: ToolCallRequest, output: unknown = 'ok'): ToolResult {
  return {
    success: true,
    tool: call.name,
    callId: call.id ?? '',
    output,
    metadata: { attempts: 1, durationMs: 0 },
  };
}

export function failed(
  call: ToolCallRequest,
  errorType: ToolErrorType = 'upstream_unavailable',
  overrides: Partial<ToolFailure> = {},
): ToolFailure {
  return {
    success: false,
    tool: call.name,
    callId: call.id ?? '',
    error: `${call.name} failed.`,
    errorType,
    recoverable: TOOL_ERROR_TYPE_TRAITS[errorType].recoverable,
    retryCount: 2,
    retryMax: 2,
    suggestions: [],
    metadata: { attempts: 3, durationMs: 0 },
    ...overrides,
  };
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets queued promise callbacks (and in-memory store saves) run. */
export function flushPromises(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}

/** Both providers' violations for a neutral history. */
export function providerViolations(messages: readonly ConversationMessage[]): {
  openai: HistoryViolation[];
  anthropic: HistoryViolation[];
} {
  return {
    openai: validateOpenAIHistory(toOpenAIMessages(messages)),
    anthropic: validateAnthropicHistory(toAnthropicMessages(messages).messages),
  };
}

/** A stand-in model that replies from a script and records every request it gets. */
export function scriptedModel(
  script: readonly (AssistantMessage | ((request: ChatModelRequest) => AssistantMessage))[],
): ChatModel & { readonly requests: ChatModelRequest[] } {
  const requests: ChatModelRequest[] = [];
  const model = async (request: ChatModelRequest) => {
    const step = script[requests.length];
    requests.push(request);
    if (!step) throw new Error('script exhausted');
    return typeof step === 'function' ? step(request) : step;
  };
  return Object.assign(model, { requests });
}

export function callsTo(
  ...calls: [id: string, name: string, args?: Record<string, unknown>][]
): AssistantMessage {
  return {
    role: 'assistant',
    content: '',
    toolCalls: calls.map(([id, name, args]) => ({
      id,
      name,
      arguments: JSON.stringify(args ?? {}),
    })),
  };
}
