import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/**
 * A fake tool-calling chat model: each step either calls tools or answers with text, in
 * order. `received[n]` is what it was sent at step n.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly received: BaseMessage[][] = [];
  private step = 0;

  constructor(private readonly script: readonly (readonly ScriptedCall[] | string)[]) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.received.push(messages);
    const step = this.script[this.step++] ?? 'done';
    const message =
      typeof step === 'string'
        ? new AIMessage(step)
        : new AIMessage({
            content: '',
            tool_calls: step.map((call) => ({ ...call, type: 'tool_call' as const })),
          });
    return { generations: [{ text: typeof step === 'string' ? step : '', message }] };
  }
}

/** The tool messages the model was sent at a step, by call id. */
export function toolMessagesSentAt(
  model: ScriptedChatModel,
  step: number,
): Record<string, ToolMessage> {
  const sent: Record<string, ToolMessage> = {};
  for (const message of model.received[step] ?? []) {
    if (ToolMessage.isInstance(message)) sent[message.tool_call_id] = message;
  }
  return sent;
}
