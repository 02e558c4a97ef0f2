import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentRunsService } from '../../src/runs/agent-runs.service.js';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import type { RunEvent } from '../../src/runs/run-event.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import type { Payment } from '../../src/upstream/payments.js';
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

/** Where in a payment a shutdown's grace runs out, for the graces a user sets. */
const GRACES = [
  // TOOLSHIELD_SHUTDOWN_GRACE_MS=0: the hand-back comes as the call is about to go out.
  { grace: '0 ms', endsWhile: 'as the lease is renewed' },
  // 250 ms against a payment answering in 1 s (or the default 8 s against one slower than 8 s).
  { grace: 'shorter than the payment', endsWhile: 'while the upstream holds the payment' },
  // The default 8 s against this payment: the run finishes within the grace.
  { grace: 'the default 8 s', endsWhile: 'after the run finished' },
] as const;

describe('pay_invoice, a call with an effect', () => {
  const store = new SlowEventStore();
  let upstream: FixtureUpstream;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const storedWhenPaid: boolean[] = [];
  /** What the test does when the upstream takes a payment (set by a test). */
  let onUpstreamPayment: (payment: Payment) => void = () => undefined;
  const upstreamUrl = process.env['UPSTREAM_URL'];

  /** Stores a pay-invoice run as a worker finds it: running, nothing done yet. */
  const createPaymentRun = (id: string) =>
    store.createRun({
      id,
      task: 'Pay invoice INV-1042: 120 EUR.',
      scenario: 'pay-invoice',
      model: 'scripted',
      status: 'running',
      createdAt: new Date().toISOString(),
    });

  beforeAll(async () => {
    upstream = await startFixtureUpstream({
      onPayment: (payment) => {
        storedWhenPaid.push(store.storedKeys.has(payment.idempotencyKey ?? '(none)'));
        onUpstreamPayment(payment);
      },
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
    await createPaymentRun(id);
    const handBack = new AbortController();
    let renewals = 0;
    const end = await server.app.get(AgentRunsService).work(id, {
      signal: handBack.signal,
      renew: async () => {
        renewals += 1;
        handBack.abort();
        return false;
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

  // SIGTERM must never be worse than SIGKILL: after a SIGKILL the takeover repeats the call
  // under its key and pays once. A shutdown's hand-back lets the payment finish instead of
  // cutting it (which recorded it as cancelled, and the takeover's model stopped unpaid).
  it.each(GRACES)(
    'a shutdown whose grace is $grace (it ends $endsWhile) hands the run back with its payment made, and the takeover completes with it',
    async ({ endsWhile }) => {
      const id = randomUUID();
      await createPaymentRun(id);
      const runs = server.app.get(AgentRunsService);
      const handBack = new AbortController();
      onUpstreamPayment = (payment) => {
        if (
          endsWhile === 'while the upstream holds the payment' &&
          payment.idempotencyKey?.startsWith(`${id}:`)
        )
          handBack.abort();
      };
      const first = await runs.work(id, {
        signal: handBack.signal,
        renew: async () => {
          if (endsWhile === 'as the lease is renewed') handBack.abort();
          return true;
        },
      });
      onUpstreamPayment = () => undefined;
      expect(first).toBe(endsWhile === 'after the run finished' ? 'finished' : 'handed-back');
      if (first === 'handed-back') {
        // Another instance takes the run over.
        expect(
          await runs.work(id, { signal: new AbortController().signal, renew: async () => true }),
        ).toBe('finished');
      }

      const paid = upstream.payments.filter((payment) =>
        payment.idempotencyKey?.startsWith(`${id}:`),
      );
      expect(paid).toHaveLength(1);
      const run = (await server.request('GET', `/api/runs/${id}`)).body as {
        status: string;
        finalAnswer: string;
        toolCalls: { tool: string; status: string }[];
      };
      expect(run.status).toBe('completed');
      expect(run.finalAnswer).toContain(`(${paid[0]?.id})`);
      expect(
        run.toolCalls.filter((call) => call.tool === 'pay_invoice').map((call) => call.status),
      ).toEqual(['succeeded']);
    },
  );
});
