/**
 * The AI SDK's mock language model scripted step by step, for the adapters' specs that run
 * the SDK (or a framework built on it, Mastra) in its own loop.
 */
import { MockLanguageModelV4 } from 'ai/test';

type MockOptions = NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>;
type GenerateResult = Extract<MockOptions['doGenerate'], unknown[]>[number];

/** A tool call the scripted model makes: its id, the tool's name and the arguments it sends. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * The AI SDK's own mock language model, scripted: each step either calls tools or answers
 * with text. `doGenerateCalls[n].prompt` shows what the model was sent at step n.
 */
export function scriptedModel(steps: readonly (readonly ScriptedCall[] | string)[]) {
  return new MockLanguageModelV4({
    doGenerate: steps.map((step): GenerateResult =>
      typeof step === 'string'
        ? {
            content: [{ type: 'text', text: step }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          }
        : {
            content: step.map((call) => ({
              type: 'tool-call',
              toolCallId: call.id,
              toolName: call.name,
              input: JSON.stringify(call.args),
            })),
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          },
    ),
  });
}

/** The tool results the model was sent at a step, by call id: what it reads. */
export function toolResultsSentAt(model: MockLanguageModelV4, step: number) {
  const sent: Record<string, { type: string; value?: unknown }> = {};
  for (const message of model.doGenerateCalls[step]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        sent[part.toolCallId] = part.output as { type: string; value?: unknown };
    }
  }
  return sent;
}
