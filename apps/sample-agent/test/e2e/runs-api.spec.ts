import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
} from '@toolshield/core/agent';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

describe('the runs API over real HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  async function runToEnd(scenario: string) {
    const created = await server.request('POST', '/api/runs', {
      task: 'Do the scenario.',
      scenario,
    });
    expect(created).toMatchObject({ status: 201, body: { status: 'running' } });
    const id = created.body.id as string;
    const stream = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    const run = await server.request('GET', `/api/runs/${id}`);
    return {
      id,
      stream,
      events: stream.events.map((event) => JSON.parse(event.data)),
      run: run.body,
    };
  }

  it.each(['trip', 'web-research', 'kube-missing-namespace', 'read-file', 'calculator'])(
    'completes the recoverable scenario %s, streaming every event in order',
    async (scenario) => {
      const { stream, events, run } = await runToEnd(scenario);
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(stream.events.map((event) => Number(event.id))).toEqual(
        events.map((event) => event.seq),
      );
      expect(events[0].data.type).toBe('run.started');
      expect(events.at(-1).data).toMatchObject({ type: 'run.finished', status: 'completed' });
      expect(run).toMatchObject({ status: 'completed', scenario });
      expect(run.finalAnswer).not.toBe('');
      expect(run.toolCalls.length).toBeGreaterThan(0);
      expect(run.toolCalls.every((call: { status: string }) => call.status !== 'running')).toBe(
        true,
      );
      expect(validateOpenAIHistory(toOpenAIMessages(run.messages))).toEqual([]);
      expect(validateAnthropicHistory(toAnthropicMessages(run.messages).messages)).toEqual([]);
    },
  );

  it('retries the 429 after its Retry-After and the reset connection, and shows both in the run', async () => {
    const { events, run } = await runToEnd('web-research');
    const retries = events.filter((event) => event.data.type === 'retry.scheduled');
    expect(retries.map((event) => event.data.errorType)).toEqual(
      expect.arrayContaining(['rate_limited', 'network', 'upstream_unavailable']),
    );
    const search = run.toolCalls.find((call: { tool: string }) => call.tool === 'web_search');
    expect(search).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(search.retries[0]).toMatchObject({ errorType: 'rate_limited', delayMs: 1_000 });
  });

  it('recovers the missing namespace: not_found, create it, list again', async () => {
    const { run } = await runToEnd('kube-missing-namespace');
    expect(
      run.toolCalls.map((call: { tool: string; status: string }) => `${call.tool}:${call.status}`),
    ).toEqual([
      'list_pods:failed',
      'create_namespace:succeeded',
      'list_pods:succeeded',
      'attempt_completion:succeeded',
    ]);
    expect(run.toolCalls[0].errorType).toBe('not_found');
  });

  it('stops on the deploy it has no permission for, saying which permission is missing', async () => {
    const { events, run } = await runToEnd('kube-deploy-forbidden');
    expect(run.status).toBe('stopped');
    expect(run.toolCalls[0]).toMatchObject({
      tool: 'deploy',
      status: 'failed',
      errorType: 'permission_denied',
    });
    expect(run.toolCalls.at(-1)).toMatchObject({ tool: 'attempt_completion', status: 'succeeded' });
    expect(run.reason.message).toMatch(
      /^STOP: deploy failed \(permission_denied, not recoverable\)/,
    );
    expect(run.finalAnswer).toContain('missing RBAC permission "create deployments"');
    expect(events.some((event) => event.data.type === 'decision.prompt')).toBe(true);
    expect(events.at(-1).data).toMatchObject({ type: 'run.finished', status: 'stopped' });
  });

  it('answers a task without a scenario by saying plainly that it is a stand-in', async () => {
    const created = await server.request('POST', '/api/runs', { task: 'Write me a poem.' });
    const stream = await readEventStream(`${server.baseUrl}/api/runs/${created.body.id}/events`);
    const run = (await server.request('GET', `/api/runs/${created.body.id}`)).body;
    expect(stream.events.length).toBeGreaterThan(0);
    expect(run.status).toBe('completed');
    expect(run.finalAnswer).toMatch(/^I am a scripted stand-in, not a language model/);
  });

  it('replays past events to a late subscriber and honours Last-Event-ID', async () => {
    const { id, events } = await runToEnd('calculator');
    const late = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    expect(late.events.map((event) => JSON.parse(event.data))).toEqual(events);
    const resumed = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`, {
      headers: { 'last-event-id': '3' },
    });
    expect(resumed.events.map((event) => Number(event.id))).toEqual(
      events.slice(3).map((event) => event.seq),
    );
  });

  it('lists runs, tools with schemas and breaker states, and health', async () => {
    await runToEnd('calculator');
    const runs = await server.request('GET', '/api/runs');
    expect(runs.status).toBe(200);
    expect(runs.body.length).toBeGreaterThan(0);
    const tools = await server.request('GET', '/api/tools');
    const calculate = tools.body.find((tool: { name: string }) => tool.name === 'calculate');
    expect(calculate).toMatchObject({ breaker: 'closed', inputSchema: { type: 'object' } });
    const health = await server.request('GET', '/api/health');
    expect(health).toMatchObject({
      status: 200,
      body: { status: 'ok', info: { tools: { status: 'up', degraded: false } } },
    });
    expect((await server.request('GET', '/api/health/live')).status).toBe(200);
  });

  it('switches chaos and its rules at run time', async () => {
    expect((await server.request('GET', '/api/chaos')).body).toMatchObject({ enabled: false });
    const rules = [
      {
        name: 'all-503',
        tools: ['calculate'],
        fault: { kind: 'upstream_error', status: 503 },
        firstN: 1,
      },
    ];
    const updated = await server.request('PUT', '/api/chaos', { enabled: true, rules });
    expect(updated).toMatchObject({
      status: 200,
      body: { enabled: true, rules: [{ name: 'all-503' }] },
    });
    const { events, run } = await runToEnd('calculator');
    expect(run.status).toBe('completed');
    expect(events.some((event) => event.data.type === 'chaos.injected')).toBe(true);
    const off = await server.request('PUT', '/api/chaos', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, rules: [{ name: 'all-503', injections: 1 }] });
  });

  it('answers bad input with 400 and a clear message, unknown runs with 404, and keeps serving', async () => {
    const cases = [
      await server.request('POST', '/api/runs', { task: '' }),
      await server.request('POST', '/api/runs', { task: 'x', scenario: 'no-such-scenario' }),
      await server.request('POST', '/api/runs', '{"task": "unterminated'),
      await server.request('POST', '/api/runs', { task: 42 }),
      await server.request('PUT', '/api/chaos', { enabled: 'yes' }),
      await server.request('PUT', '/api/chaos', {
        rules: [{ name: 'x', fault: { kind: 'meteor' } }],
      }),
    ];
    expect(cases.map((response) => response.status)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(cases[0]?.body.message).toBe('"task" must be a non-empty string.');
    expect(cases[1]?.body.message).toMatch(/^Unknown scenario "no-such-scenario"; known: trip, /);
    expect(cases[5]?.body.message).toMatch(/^rules\[0\]: "fault.kind" must be/);
    expect((await server.request('GET', '/api/runs/nope')).status).toBe(404);
    expect((await server.request('GET', '/api/runs/nope/events')).status).toBe(404);
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });
});
