import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { startTelemetry, type AppTelemetry } from '../../src/telemetry/start-telemetry.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

jest.setTimeout(60_000);

describe('one trace per run (the OpenTelemetry trace SDK, in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: AppTelemetry;
  let server: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    telemetry = startTelemetry(
      { PROMETHEUS: 'off' },
      { spanProcessors: [new SimpleSpanProcessor({ exporter })] },
    );
    server = await startTestServer(undefined, {}, { telemetry });
  });
  afterAll(async () => {
    await server?.close();
    await telemetry?.shutdown();
  });

  async function runToEnd(scenario: string): Promise<string> {
    const created = await server.request('POST', '/api/runs', { task: 'Do it.', scenario });
    const id = created.body.id as string;
    await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    return id;
  }

  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('nests run → model step → tool call → attempt, in one trace per run', async () => {
    const ids = [await runToEnd('web-research'), await runToEnd('calculator')];
    const spans = exporter.getFinishedSpans();
    const runs = spans.filter((span) => span.name === 'invoke_agent sample-agent');
    expect(runs.map((span) => span.attributes['gen_ai.conversation.id'])).toEqual(ids);
    expect(new Set(runs.map((span) => span.spanContext().traceId)).size).toBe(2);

    const [research] = runs as [ReadableSpan];
    expect(research.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'toolshield.scenario': 'web-research',
      'toolshield.run.status': 'completed',
    });
    const trace = spans.filter(
      (span) => span.spanContext().traceId === research.spanContext().traceId,
    );
    const byId = new Map(trace.map((span) => [span.spanContext().spanId, span]));
    const kind = (span: ReadableSpan | undefined) => span?.name.split(' ')[0];
    expect(parentOf(research)).toBeUndefined();
    const steps = trace.filter((span) => kind(span) === 'chat');
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const step of steps) expect(parentOf(step)).toBe(research.spanContext().spanId);
    const calls = trace.filter((span) => kind(span) === 'execute_tool');
    expect(calls.map((span) => span.attributes['gen_ai.tool.name']).sort()).toEqual([
      'attempt_completion',
      'fetch_page',
      'web_search',
    ]);
    for (const call of calls) expect(kind(byId.get(parentOf(call) ?? ''))).toBe('chat');
    // The 429 and Retry-After: two attempts of web_search under its call span.
    const search = calls.find((span) => span.attributes['gen_ai.tool.name'] === 'web_search');
    if (!search) throw new Error('no web_search span');
    const attempts = trace.filter(
      (span) => kind(span) === 'tool_attempt' && parentOf(span) === search.spanContext().spanId,
    );
    expect(attempts.map((span) => span.attributes['error.type'])).toEqual([
      'rate_limited',
      undefined,
    ]);
    expect(spans.every((span) => span.ended)).toBe(true);
  });
});
