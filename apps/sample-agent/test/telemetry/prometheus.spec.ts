import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { startTelemetry, type AppTelemetry } from '../../src/telemetry/start-telemetry.js';
import {
  describeWithPrometheus,
  startPrometheus,
  type PrometheusSample,
  type PrometheusServer,
} from '../fixtures/prometheus-server.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

jest.setTimeout(120_000);

/** Asks until the answer passes `done` (Prometheus scrapes every 500 ms). */
async function eventually(
  prometheus: PrometheusServer,
  promql: string,
  done: (samples: PrometheusSample[]) => boolean,
): Promise<PrometheusSample[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const samples = await prometheus.query(promql);
    if (done(samples) || Date.now() > deadline) return samples;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const byTool = (samples: PrometheusSample[]) =>
  Object.fromEntries(
    samples.map((sample) => [sample.metric['gen_ai_tool_name'], Number(sample.value[1])]),
  );

describeWithPrometheus('the service scraped by a real Prometheus server', () => {
  let telemetry: AppTelemetry;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let prometheus: PrometheusServer;

  beforeAll(async () => {
    telemetry = startTelemetry({});
    server = await startTestServer(undefined, {}, { telemetry });
    prometheus = await startPrometheus(new URL(server.baseUrl).host);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await server?.close();
    await telemetry?.shutdown();
  });

  it('serves /metrics in the Prometheus text format', async () => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('has the tool-call counters and a p95 per tool after a scripted run', async () => {
    for (const scenario of ['web-research', 'outage']) {
      const created = await server.request('POST', '/api/runs', { task: 'Do it.', scenario });
      await readEventStream(`${server.baseUrl}/api/runs/${created.body.id as string}/events`);
    }
    const calls = await eventually(
      prometheus,
      'sum by (gen_ai_tool_name) (toolshield_tool_calls_total)',
      (samples) => byTool(samples)['fetch_page'] !== undefined,
    );
    expect(byTool(calls)).toMatchObject({ web_search: 1, fetch_page: 1, attempt_completion: 2 });

    const failures = await prometheus.query(
      'sum by (gen_ai_tool_name, error_type) (toolshield_tool_calls_total{toolshield_outcome="failure"})',
    );
    expect(failures.map((sample) => sample.metric['error_type'])).toContain('circuit_open');

    const p95 = await prometheus.query(
      'histogram_quantile(0.95, sum by (le, gen_ai_tool_name) (gen_ai_execute_tool_duration_bucket))',
    );
    const quantiles = byTool(p95);
    // web_search waited a 1 s Retry-After: its p95 lies in the bucket up to 1.28 s or above.
    expect(quantiles['web_search']).toBeGreaterThan(0.64);
    expect(quantiles['fetch_page']).toBeGreaterThan(0);

    const retries = await prometheus.query(
      'sum by (gen_ai_tool_name, error_type) (toolshield_tool_retries_total)',
    );
    expect(retries).toContainEqual(
      expect.objectContaining({
        metric: expect.objectContaining({
          gen_ai_tool_name: 'web_search',
          error_type: 'rate_limited',
        }),
      }),
    );
    const breaker = await prometheus.query(
      'toolshield_breaker_state{toolshield_breaker_key="news_search:lane-1"} == 1',
    );
    expect(breaker.map((sample) => sample.metric['toolshield_breaker_state'])).toEqual(['closed']);
    const attempts = await prometheus.query(
      'histogram_quantile(0.5, sum by (le, gen_ai_tool_name) (toolshield_tool_attempt_duration_bucket))',
    );
    expect(byTool(attempts)['news_search']).toBeGreaterThan(0);
    const opened = await prometheus.query(
      'sum by (toolshield_breaker_to) (toolshield_breaker_transitions_total)',
    );
    expect(opened.map((sample) => sample.metric['toolshield_breaker_to']).sort()).toEqual([
      'closed',
      'half_open',
      'open',
    ]);
  });
});
