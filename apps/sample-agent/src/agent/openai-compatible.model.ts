import {
  classifyError,
  shieldTool,
  type CircuitBreakerOptions,
  type Clock,
  type RetryOptions,
  type ShieldedTool,
} from '@toolshield/core';
import {
  toOpenAIMessages,
  type AssistantMessage,
  type ChatModel,
  type ChatModelTool,
  type ConversationToolCall,
} from '@toolshield/core/agent';
import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { AgentModel } from './agent-model.js';
import { redactSecrets, redactUrl } from './redact-secrets.js';

/** Where and how to reach a Chat Completions endpoint (OpenAI, Ollama, vLLM, ...). */
export interface OpenAICompatibleModelOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token when given (local servers often need none). */
  readonly apiKey?: string;
  /** Per-attempt limit of one model request; default 60 s. */
  readonly timeoutMs?: number;
  /** Retries of a failed request (429 with `Retry-After`, 5xx, network); default 2 retries. */
  readonly retry?: RetryOptions;
  /** The breaker around the endpoint; default opens after 5 calls with more than half failing. */
  readonly breaker?: CircuitBreakerOptions;
  /** The clock of the policies; default the system clock. */
  readonly clock?: Clock;
}

/** One request to the endpoint, and the SDK's errors of its attempts (for the message). */
interface ModelRequest {
  readonly body: ChatCompletionCreateParamsNonStreaming;
  readonly errors: unknown[];
}

/** A model request that failed for good: the cause, the URL, no secrets. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly errorType: string,
    readonly url: string,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

const EMPTY_PARAMETERS = { type: 'object', properties: {} };

function toFunctionTool(tool: ChatModelTool): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: (tool.parameters ?? EMPTY_PARAMETERS) as Record<string, unknown>,
    },
  };
}

/** The SDK error's own words and those of its causes (`fetch failed` says little alone). */
function causeText(error: unknown): string {
  const parts: string[] = [];
  for (let link = error, depth = 0; link instanceof Error && depth < 4; depth += 1) {
    if (!parts.includes(link.message)) parts.push(link.message);
    link = link.cause;
  }
  return parts.join(': ') || String(error);
}

/**
 * A real model behind an OpenAI-compatible Chat Completions endpoint, through the official
 * `openai` SDK (its own retries off). The request is a dependency like any tool: it runs
 * through toolshield's retry (honouring `Retry-After`), a per-attempt timeout and a circuit
 * breaker from `@toolshield/core`. When it fails for good, the call rejects with a
 * {@link ModelCallError} naming the cause and the endpoint URL, with the key redacted; the
 * agent runner ends the run with `model_error` and that message.
 */
export class OpenAICompatibleModel implements AgentModel {
  readonly label: string;
  private readonly client: OpenAI;
  private readonly completion: ShieldedTool<ModelRequest, ChatCompletion>;
  private readonly url: string;

  readonly chat: ChatModel = async ({ messages, tools, signal }) => {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.options.model,
      messages: toOpenAIMessages(messages) as ChatCompletionMessageParam[],
      ...(tools.length > 0 ? { tools: tools.map(toFunctionTool) } : {}),
    };
    const request: ModelRequest = { body, errors: [] };
    const outcome = await this.completion(request, { signal });
    if (!outcome.success) {
      // The SDK's own error, with its causes, says more than the failure a model would read
      // (when it is what ended the call, not a timeout or an open breaker).
      const last = request.errors.at(-1);
      const own = last === undefined ? undefined : classifyError(last);
      const cause = own?.type === outcome.errorType ? own : new Error(outcome.error);
      throw this.failure(cause, outcome.errorType, outcome.retryCount + 1);
    }
    const message = outcome.output.choices[0]?.message;
    const toolCalls: ConversationToolCall[] = (message?.tool_calls ?? []).flatMap((call) =>
      call.type === 'function'
        ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
        : [],
    );
    const reply: AssistantMessage = { role: 'assistant', content: message?.content ?? '' };
    return toolCalls.length > 0 ? { ...reply, toolCalls } : reply;
  };

  constructor(private readonly options: OpenAICompatibleModelOptions) {
    const baseURL = options.baseUrl.replace(/\/+$/, '');
    this.url = redactUrl(`${baseURL}/chat/completions`);
    this.label = `${options.model} at ${redactUrl(baseURL)} (OpenAI-compatible)`;
    this.client = new OpenAI({
      baseURL,
      apiKey: options.apiKey ?? 'none',
      maxRetries: 0,
      timeout: 24 * 60 * 60 * 1_000,
      // Local servers need no key; send no authorization header then.
      ...(options.apiKey ? {} : { defaultHeaders: { authorization: null } }),
    });
    // Asking a model again is safe: the request is idempotent, so toolshield retries it.
    this.completion = shieldTool(
      async ({ body, errors }: ModelRequest, { signal }) => {
        try {
          return await this.client.chat.completions.create(body, { signal });
        } catch (error) {
          errors.push(error);
          throw error;
        }
      },
      {
        name: `model:${options.model}`,
        idempotent: true,
        retry: { maxRetries: 2, backoff: { baseMs: 500, capMs: 5_000 }, ...options.retry },
        breaker: { volumeThreshold: 5, resetTimeoutMs: 30_000, ...options.breaker },
        timeoutMs: options.timeoutMs ?? 60_000,
        clock: options.clock,
        output: false,
      },
    );
  }

  private failure(error: Error, errorType: string, attempts: number): ModelCallError {
    const cause = redactSecrets(causeText(error), this.options.apiKey ? [this.options.apiKey] : []);
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    return new ModelCallError(
      `${this.options.model} at ${this.url} failed (${errorType}, ${tries}): ${cause}`,
      errorType,
      this.url,
      attempts,
    );
  }
}
