import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import {
  decide,
  finishedRun,
  startRun,
  untilAwaitingApproval,
  type StreamedEvent,
} from '../fixtures/approvals.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

jest.setTimeout(60_000);

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

describe('a payment a person approves (pay-large-invoice, one instance)', () => {
  let upstream: FixtureUpstream;
  let server: TestServer;
  /** One whose approvals expire after 300 ms. */
  let hurried: TestServer;
  const upstreamUrl = process.env['UPSTREAM_URL'];
  const paymentsOf = (runId: string) =>
    upstream.payments.filter((payment) => payment.idempotencyKey?.startsWith(`${runId}:`));

  beforeAll(async () => {
    upstream = await startFixtureUpstream();
    process.env['UPSTREAM_URL'] = upstream.url;
    [server, hurried] = await Promise.all([
      startTestServer(new InMemoryRunStore()),
      startTestServer(new InMemoryRunStore(), { APPROVAL_TTL_MS: '300' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([server?.close(), hurried?.close()]);
    await upstream?.close();
    if (upstreamUrl === undefined) delete process.env['UPSTREAM_URL'];
    else process.env['UPSTREAM_URL'] = upstreamUrl;
  });

  it('waits with the call listed (redacted arguments), and once approved makes the payment once and completes; the stream stays open across the wait', async () => {
    const id = await startRun(server.baseUrl);
    // One client follows the run from its start to its end, through the wait.
    const whole = readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    const { approvalId } = await untilAwaitingApproval(server.baseUrl, id);
    expect((await server.request('GET', `/api/runs/${id}`)).body.status).toBe('awaiting_approval');
    const listed = await server.request('GET', '/api/approvals');
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: approvalId,
        runId: id,
        tool: 'pay_invoice',
        status: 'pending',
        args: { invoice: 'INV-2048', amount: 4800, currency: 'EUR' },
      }),
    ]);
    expect(paymentsOf(id)).toHaveLength(0);

    const approved = await decide(server.baseUrl, approvalId, { decision: 'approve' });
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
    const { events } = await whole;
    const types = events.map((event) => (JSON.parse(event.data) as StreamedEvent).data.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'approval.requested',
        'run.awaiting_approval',
        'approval.approved',
        'call.succeeded',
        'run.finished',
      ]),
    );
    expect(types.indexOf('approval.approved')).toBeGreaterThan(
      types.indexOf('run.awaiting_approval'),
    );
    const { run } = await finishedRun(server.baseUrl, id);
    const paid = paymentsOf(id);
    expect(paid).toHaveLength(1);
    expect(run.status).toBe('completed');
    expect(run.finalAnswer).toContain(`Paid INV-2048 (${paid[0]?.id})`);
    expect((await server.request('GET', '/api/approvals')).body).toEqual([]);

    // Decided once: a second decision is refused, saying so.
    const again = await decide(server.baseUrl, approvalId, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/was approved already at .*; it is decided once/);
    expect(paymentsOf(id)).toHaveLength(1);
  });

  it('reads a denial as its own text: the model says a person declined and stops, nothing is paid', async () => {
    const id = await startRun(server.baseUrl);
    const { approvalId } = await untilAwaitingApproval(server.baseUrl, id);
    const denied = await decide(server.baseUrl, approvalId, {
      decision: 'deny',
      reason: 'Over this month’s budget',
      by: 'finance@example.com',
    });
    expect(denied).toMatchObject({ status: 200, body: { status: 'denied' } });
    const { run, events } = await finishedRun(server.baseUrl, id);
    expect(events.map((event) => event.data.type)).toContain('approval.denied');
    const toolResult = run.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(toolResult?.content ?? '{}')).toMatchObject({
      errorType: 'approval_denied',
      error:
        'A person declined: Over this month’s budget. Do not call it again with these arguments.',
    });
    expect(run.status).toBe('stopped');
    expect(run.messages.filter((message) => message.role === 'assistant').at(-1)?.content).toBe(
      'STOP: pay_invoice did not run: A person declined: Over this month’s budget. Do not call it again with these arguments. I will not try to get the payment another way.',
    );
    expect(paymentsOf(id)).toHaveLength(0);
  });

  it('reads an expiry as its own text: nobody approved in time, the model says so and stops; a late decision is refused', async () => {
    const id = await startRun(hurried.baseUrl);
    const { approvalId } = await untilAwaitingApproval(hurried.baseUrl, id);
    const { run, events } = await finishedRun(hurried.baseUrl, id);
    expect(events.map((event) => event.data.type)).toContain('approval.expired');
    const toolResult = run.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(toolResult?.content ?? '{}')).toMatchObject({
      errorType: 'approval_expired',
      error: 'Nobody approved the call within 300ms, so it did not run.',
    });
    expect(run.status).toBe('stopped');
    expect(run.finalAnswer).toContain('Nobody approved the call within 300ms');
    const late = await decide(hurried.baseUrl, approvalId, { decision: 'approve' });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/expired at/);
    expect(paymentsOf(id)).toHaveLength(0);
  });

  it('answers clearly: 404 for an unknown approval, 400 for a bad decision or filter, the payment below the threshold does not wait', async () => {
    const unknown = await decide(server.baseUrl, 'no-such-approval', { decision: 'approve' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: 'No approval "no-such-approval".' },
    });
    const bad = await decide(server.baseUrl, 'no-such-approval', { decision: 'yes' });
    expect(bad).toMatchObject({
      status: 400,
      body: { message: '"decision" must be "approve" or "deny", got "yes".' },
    });
    const filter = await server.request('GET', '/api/approvals?status=later');
    expect(filter.status).toBe(400);
    expect(filter.body.message).toContain(
      '"status" must be one of pending, approved, denied, expired, all',
    );

    const small = await startRun(server.baseUrl, {
      task: 'Pay invoice INV-1042: 120 EUR.',
      scenario: 'pay-invoice',
    });
    const { run } = await finishedRun(server.baseUrl, small);
    expect(run.status).toBe('completed');
    expect((await server.request('GET', `/api/approvals?runId=${small}&status=all`)).body).toEqual(
      [],
    );
  });
});

describe('deciding is behind the API token and the same-site checks', () => {
  let server: TestServer;
  beforeAll(
    async () => (server = await startTestServer(new InMemoryRunStore(), { API_TOKEN: 'sesame' })),
  );
  afterAll(() => server?.close());

  it('refuses a decision without the token (401) and from another site (403)', async () => {
    expect((await decide(server.baseUrl, 'any', { decision: 'approve' })).status).toBe(401);
    expect((await server.request('GET', '/api/approvals')).status).toBe(401);
    const crossSite = await decide(
      server.baseUrl,
      'any',
      { decision: 'approve' },
      { authorization: 'Bearer sesame', origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    const allowed = await decide(
      server.baseUrl,
      'any',
      { decision: 'approve' },
      { authorization: 'Bearer sesame' },
    );
    expect(allowed.status).toBe(404);
  });
});
