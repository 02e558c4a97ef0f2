import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { AssistantMessage } from '@toolshield/core/agent';
import type { RunRecord } from '../runs/run-record.js';

/** The tracer of the run, model-step spans (the global provider's; a no-op without an SDK). */
const tracer = () => trace.getTracer('@toolshield/sample-agent');

/** The agent's name in `gen_ai.agent.name` and the run span's name. */
export const AGENT_NAME = 'sample-agent';

/**
 * One trace per run: an `invoke_agent` span for the run, a `chat` span per model step under
 * it, and each tool call (`execute_tool`, from `@toolshield/nest/telemetry`, with its
 * attempts) under the step whose reply asked for it. GenAI semantic-convention names.
 */
export class RunTracing {
  private readonly span: Span;
  /** The step span that asked for each tool call, by call id. */
  private readonly steps = new Map<string, Span>();

  constructor(run: Pick<RunRecord, 'id' | 'model' | 'scenario'>) {
    this.span = tracer().startSpan(`invoke_agent ${AGENT_NAME}`, {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': AGENT_NAME,
        'gen_ai.conversation.id': run.id,
        'gen_ai.request.model': run.model,
        ...(run.scenario === undefined ? {} : { 'toolshield.scenario': run.scenario }),
      },
    });
  }

  /** Runs the agent loop inside the run's span, and ends the span with its status. */
  async run<T>(work: () => Promise<T>, status: (result: T) => string): Promise<T> {
    try {
      const result = await context.with(trace.setSpan(context.active(), this.span), work);
      this.span.setAttribute('toolshield.run.status', status(result));
      return result;
    } catch (error) {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      throw error;
    } finally {
      this.span.end();
    }
  }

  /** One model step as a `chat` span; remembers it as the parent of the calls it asks for. */
  async modelStep<T extends AssistantMessage>(
    step: number,
    model: string,
    work: () => Promise<T>,
  ): Promise<T> {
    const span = tracer().startSpan(
      `chat ${model}`,
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': model,
          'toolshield.agent.step': step,
        },
      },
      trace.setSpan(context.active(), this.span),
    );
    try {
      const reply = await work();
      for (const call of reply.toolCalls ?? []) this.steps.set(call.id, span);
      return reply;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  /** Runs a tool call with its model step's span as the active one (its spans' parent). */
  toolCall<T>(callId: string, work: () => Promise<T>): Promise<T> {
    const parent = this.steps.get(callId) ?? this.span;
    this.steps.delete(callId);
    return context.with(trace.setSpan(context.active(), parent), work);
  }
}
