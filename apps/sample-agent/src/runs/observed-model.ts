import type { ChatModel } from '@toolshield/core/agent';
import type { AgentModel } from '../agent/agent-model.js';
import type { RunTracing } from '../telemetry/run-tracing.js';
import type { RunEventHub } from './run-event-hub.js';

/** What {@link observedModel} reports a run's model steps with. */
export interface ModelObservation {
  /** The run's trace: each model step is a span. */
  readonly tracing: RunTracing;
  /** The model's label, as runs record it. */
  readonly label: string;
}

/**
 * A run's model, with each request, reply, failure and decision prompt on the run's event
 * stream, and each step traced.
 */
export function observedModel(
  hub: RunEventHub,
  runId: string,
  model: AgentModel,
  { tracing, label }: ModelObservation,
): ChatModel {
  let step = 0;
  return async (request) => {
    step += 1;
    const [previous, last] = request.messages.slice(-2);
    if (last?.role === 'user' && previous?.role === 'tool') {
      hub.emit(runId, { type: 'decision.prompt', content: last.content });
    }
    hub.emit(runId, { type: 'model.request', step, messages: request.messages.length });
    try {
      const reply = await tracing.modelStep(step, label, () => model.chat(request));
      const toolCalls = (reply.toolCalls ?? []).map((call) => ({
        id: call.id,
        name: call.name,
        arguments:
          typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      }));
      hub.emit(runId, { type: 'model.reply', step, content: reply.content, toolCalls });
      return reply;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      hub.emit(runId, { type: 'model.failed', step, error: message });
      throw error;
    }
  };
}
