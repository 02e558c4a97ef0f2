import {
  toOpenAIMessages,
  type AssistantMessage,
  type ChatModel,
  type ChatModelTool,
  type ConversationToolCall,
} from '@toolshield/core';
import type { AgentModel } from './agent-model.js';

/** Where and how to reach a Chat Completions endpoint (OpenAI, or any server that speaks its API). */
export interface OpenAICompatibleModelOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token when given (local servers often need none). */
  readonly apiKey?: string;
  /** The HTTP client; default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

/** The part of a Chat Completions response the agent reads. */
interface ChatCompletion {
  readonly choices?: readonly {
    readonly message?: {
      readonly content?: string | null;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly function: { readonly name: string; readonly arguments: string };
      }[];
    };
  }[];
}

const EMPTY_PARAMETERS = { type: 'object', properties: {} };

function toFunctionTool(tool: ChatModelTool) {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? EMPTY_PARAMETERS,
    },
  };
}

/**
 * A real model behind an OpenAI-compatible `POST {baseUrl}/chat/completions`: the history goes
 * out as Chat Completions messages (`toOpenAIMessages`), the registered tools as function
 * tools, and the reply's text and tool calls come back as the next assistant message. HTTP
 * errors throw; the agent runner ends the run with `model_error`.
 */
export class OpenAICompatibleModel implements AgentModel {
  readonly label: string;
  readonly chat: ChatModel = async ({ messages, tools, signal }) => {
    const response = await this.fetch(
      `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.options.model,
          messages: toOpenAIMessages(messages),
          ...(tools.length > 0 ? { tools: tools.map(toFunctionTool) } : {}),
        }),
        signal,
      },
    );
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 300);
      throw new Error(`${this.options.model} answered HTTP ${response.status}: ${detail}`);
    }
    return toAssistantMessage((await response.json()) as ChatCompletion);
  };
  private readonly fetch: typeof fetch;

  constructor(private readonly options: OpenAICompatibleModelOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.label = `${options.model} at ${options.baseUrl} (OpenAI-compatible)`;
  }
}

function toAssistantMessage(completion: ChatCompletion): AssistantMessage {
  const message = completion.choices?.[0]?.message;
  if (!message) throw new Error('The model answered without a message.');
  const toolCalls = (message.tool_calls ?? []).map((call): ConversationToolCall => ({
    id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }));
  return {
    role: 'assistant',
    content: message.content ?? '',
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
}
