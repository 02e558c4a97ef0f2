import type {
  AssistantMessage,
  ConversationMessage,
} from '../conversation/conversation-message.js';

/** A tool as the model is told about it. @publicApi */
export interface ChatModelTool {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the arguments. */
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/** @publicApi */
export interface ChatModelRequest {
  /** The repaired history: valid for OpenAI and Anthropic once converted. */
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly ChatModelTool[];
  readonly signal?: AbortSignal;
}

/**
 * One model request: the history in, the next assistant message out. Adapt a provider SDK
 * with `toOpenAIMessages` / `toAnthropicMessages`, or script it in tests.
 *
 * @publicApi
 */
export type ChatModel = (request: ChatModelRequest) => Promise<AssistantMessage>;
