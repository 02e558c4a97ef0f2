import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentRunsService } from '../../src/runs/agent-runs.service.js';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import type { RunEvent } from '../../src/runs/run-event.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

/** A run store whose event writes take a while, as PostgreSQL's do on a loaded machine. */
class SlowEventStore extends InMemoryRunStore {
  /** The idempotency keys of the `tool.requested` events stored so far. */
  readonly storedKeys = new Set<string>();

  override async appendEvents(events: readonly RunEvent[]): Promise<void> {
    await sleep(150);
    await super.appendEvents(events);
    for (const { data } of events) {
      if (data.type === 'tool.requested' && data.idempotencyKey) {
        this.storedKeys.add(data.idempotencyKey);
      }
    }
  }
}

describe('pay_invoice, a call with an effect', () => {
  const store = new SlowEventStore();
  let upstream: FixtureUpstream;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const storedWhenPaid: boolean[] = [];
  const upstreamUrl = process.env['UPSTREAM_URL'];

  beforeAll(async () => {
    upstream = await startFixtureUpstream({
      onPayment: (payment) =>
        storedWhenPaid.push(store.storedKeys.has(payment.idempotencyKey ?? '(none)')),
    });
    process.env['UPSTREAM_URL'] = upstream.url;
    server = await startTestServer(store);
  });

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    if (upstreamUrl === undefined) delete process.env['UPSTREAM_URL'];
    else process.env['UPSTREAM_URL'] = upstreamUrl;
  });

  // A worker killed between the payment and the write of its key would leave the run's
  // takeover without the key, and the repeat would pay again under a new one.
  it('stores the idempotency key of pay_invoice before the upstream takes the payment', async () => {
    const created = await server.request('POST', '/api/runs', {
      task: 'Pay invoice INV-1042: 120 EUR.',
      scenario: 'pay-invoice',
    });
    expect(created.status).toBe(201);
    const { events } = await readEventStream(
      `${server.baseUrl}/api/runs/${created.body.id as string}/events`,
    );
    expect(JSON.parse(events.at(-1)?.data ?? '{}').data).toMatchObject({
      type: 'run.finished',
      status: 'completed',
    });
    expect(upstream.payments).toHaveLength(1);
    expect(storedWhenPaid).toEqual([true]);
  });

  // A worker whose event loop stalled past its lock: another instance may have the run now.
  it('is not made by a worker that lost its lease; the run is handed back with its key stored', async () => {
    const paidBefore = upstream.payments.length;
    const id = randomUUID();
    await store.createRun({
      id,
      task: 'Pay invoice INV-1042: 120 EUR.',
      scenario: 'pay-invoice',
      model: 'scripted',
      status: 'running',
      createdAt: new Date().toISOString(),
    });
    const handBack = new AbortController();
    let renewals = 0;
    const end = await server.app.get(AgentRunsService).work(id, {
      signal: handBack.signal,
      renew: async () => {
        renewals += 1;
        handBack.abort();
      },
    });
    expect(end).toBe('handed-back');
    expect(renewals).toBe(1);
    expect(upstream.payments).toHaveLength(paidBefore);
    const events = (await store.events(id)).map((event) => event.data);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool.requested',
        tool: 'pay_invoice',
        idempotencyKey: expect.stringMatching(new RegExp(`^${id}:`)),
      }),
    );
    expect(events.at(-1)?.type).toBe('run.handed_back');
    expect((await store.getRun(id))?.status).toBe('running');
  });
});
