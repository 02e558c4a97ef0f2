import { Agent, Runner, type AgentInputItem, type Tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** The Agents SDK's own scripted model: each step either calls tools or answers with text. */
export function scriptedModel(steps: readonly (readonly ScriptedCall[] | string)[]) {
  return new ScriptedModel(
    steps.map((step) =>
      typeof step === 'string'
        ? [assistantMessage(step)]
        : step.map((call) => functionCall(call.name, call.args, { callId: call.id })),
    ),
  );
}

/** Runs an agent with these tools on the SDK's own `Runner`, tracing off. */
export function runAgent(
  model: ScriptedModel,
  tools: Tool[],
  config: ConstructorParameters<typeof Runner>[0] = {},
  signal?: AbortSignal,
) {
  const agent = new Agent({ name: 'Travel agent', instructions: 'Help.', model, tools });
  return new Runner({ tracingDisabled: true, ...config }).run(agent, 'Plan my trip.', { signal });
}

/** What the model was sent as tool output at a step, by call id. */
export function toolOutputsSentAt(model: ScriptedModel, step: number): Record<string, string> {
  const sent: Record<string, string> = {};
  const input = model.calls[step]?.request.input;
  for (const item of (Array.isArray(input) ? input : []) as AgentInputItem[]) {
    if (item.type !== 'function_call_result') continue;
    const output = item.output;
    sent[item.callId] =
      typeof output === 'string'
        ? output
        : 'text' in output
          ? String(output.text)
          : JSON.stringify(output);
  }
  return sent;
}
