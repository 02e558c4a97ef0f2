import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { RedisServer } from '@toolshield/redis/testing';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import type { Payment } from '../../src/upstream/payments.js';
import { describeWithQueueServices } from '../fixtures/queue-services.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { freshPostgresDatabase, TEST_DATABASE_URL } from '../fixtures/stores.js';

jest.setTimeout(240_000);

const RUNS = 30;

interface StreamedEvent {
  readonly runId: string;
  readonly seq: number;
  readonly at: number;
  readonly instance?: string;
  readonly data: {
    readonly type: string;
    readonly tool?: string;
    readonly instance?: string;
    readonly status?: string;
  };
}

/** The instances that worked a run, in order, one entry per stretch of events. */
function workStretches(
  events: readonly StreamedEvent[],
): { instance: string; first: StreamedEvent }[] {
  const stretches: { instance: string; first: StreamedEvent }[] = [];
  for (const event of events.slice(1)) {
    const instance = event.instance ?? '(none)';
    if (stretches.at(-1)?.instance !== instance) stretches.push({ instance, first: event });
  }
  return stretches;
}

describeWithQueueServices(
  'three instances on one run queue (BullMQ on a real redis-server, PostgreSQL)',
  () => {
    let redis: RedisServer;
    let upstream: FixtureUpstream;
    let drop: () => Promise<void>;
    let instances: ServerProcess[] = [];
    /** What the test does when the upstream makes a payment (set by the test). */
    let onUpstreamPayment: (payment: Payment) => void = () => undefined;

    beforeAll(async () => {
      buildApp();
      redis = await RedisServer.start();
      upstream = await startFixtureUpstream({ onPayment: (payment) => onUpstreamPayment(payment) });
      const database = await freshPostgresDatabase(TEST_DATABASE_URL as string);
      drop = database.drop;
      const env = (name: string) => ({
        DATABASE_URL: database.url,
        TOOLSHIELD_STORE: undefined,
        REDIS_URL: redis.url,
        UPSTREAM_URL: upstream.url,
        INSTANCE_ID: name,
        RUN_CONCURRENCY: '4',
        RUN_LOCK_MS: '3000',
        RUN_STALLED_INTERVAL_MS: '1000',
        TOOLSHIELD_SHUTDOWN_GRACE_MS: '300',
      });
      // The first one migrates the database; the others find it up to date.
      instances = [await startServerProcess(env('instance-1'))];
      instances.push(
        ...(await Promise.all([2, 3].map((n) => startServerProcess(env(`instance-${n}`))))),
        // A fourth instance serves the API only (RUN_WORKER=false).
        await startServerProcess({ ...env('api-only'), RUN_WORKER: 'false' }),
      );
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
      await upstream?.close();
      await redis?.stop();
      await drop?.();
    });

    it('spreads 30 runs, survives a SIGKILL and a SIGTERM, works each run on one instance at a time and pays each invoice once', async () => {
      const [killed, terminated, survivor] = instances as [
        ServerProcess,
        ServerProcess,
        ServerProcess,
        ServerProcess,
      ];
      const ids = await Promise.all(
        Array.from({ length: RUNS }, async (_, index) => {
          const response = await fetch(`${instances[index % instances.length]?.baseUrl}/api/runs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              task: 'Pay invoice INV-1042: 120 EUR.',
              scenario: 'pay-invoice',
            }),
          });
          expect(response.status).toBe(201);
          return ((await response.json()) as { id: string }).id;
        }),
      );

      // Every run followed live on the instance that survives; the other two go mid-payment:
      // once the upstream made a payment (its answer takes a second) for a run the instance
      // works, whichever of the two the test hears of first.
      let stopping: Promise<void>[] = [];
      const workedBy = new Map<string, string>();
      const paid = new Set<string>();
      const stopIfMidPayment = (runId: string) => {
        if (!paid.has(runId)) return;
        const instance = workedBy.get(runId);
        if (instance === 'instance-1' && stopping.length === 0) {
          stopping = [killed.stop('SIGKILL')];
        } else if (instance === 'instance-2' && stopping.length === 1) {
          stopping.push(terminated.stop('SIGTERM'));
        }
      };
      onUpstreamPayment = (payment) => {
        const runId = payment.idempotencyKey?.split(':')[0];
        if (runId === undefined) return;
        paid.add(runId);
        stopIfMidPayment(runId);
      };
      const onPayment = (event: StreamedEvent) => {
        if (event.data.type !== 'call.started' || event.data.tool !== 'pay_invoice') return;
        if (event.instance === undefined) return;
        workedBy.set(event.runId, event.instance);
        stopIfMidPayment(event.runId);
      };
      // A client following every run on the instance that gets SIGTERM: it must not hold the
      // instance open; its streams end when the instance goes.
      const onTerminated = ids.map((id) =>
        readEventStream(`${terminated.baseUrl}/api/runs/${id}/events`).catch(() => undefined),
      );
      const finished = new Set<string>();
      // Runs take seconds; if one has not ended after a minute, say which and what each
      // instance printed, so a hang in CI explains itself before Jest's timeout.
      const watchdog = setTimeout(() => {
        const open = ids.filter((id) => !finished.has(id));
        console.log(
          `still open after 60 s: ${open.join(', ')}; stops started ${stopping.length}, SIGTERMed exit code ${terminated.child.exitCode}\n` +
            instances
              .map((instance, n) => `--- instance ${n}:\n${instance.output().slice(-4_000)}`)
              .join('\n'),
        );
      }, 60_000);
      const streams = await Promise.all(
        ids.map(async (id) => {
          const { events } = await readEventStream(`${survivor.baseUrl}/api/runs/${id}/events`, {
            onEvent: (event) => onPayment(JSON.parse(event.data) as StreamedEvent),
          });
          finished.add(id);
          return events.map((event) => JSON.parse(event.data) as StreamedEvent);
        }),
      );
      await Promise.all(stopping);
      clearTimeout(watchdog);
      expect(stopping).toHaveLength(2);
      // SIGTERM: it exited on its own after handing its runs back.
      expect(terminated.child.exitCode).toBe(0);
      await Promise.all(onTerminated);

      const takeovers: number[] = [];
      for (const [index, events] of streams.entries()) {
        const id = ids[index] as string;
        // The whole run, numbered without a gap, as the store has it.
        expect(events.map((event) => event.seq)).toEqual(events.map((_, n) => n + 1));
        const replay = await readEventStream(`${survivor.baseUrl}/api/runs/${id}/events`);
        expect(replay.events.map((event) => JSON.parse(event.data))).toEqual(events);
        // Resuming a stream elsewhere: the API-only instance, after Last-Event-ID 2.
        const resumed = await readEventStream(`${instances[3]?.baseUrl}/api/runs/${id}/events`, {
          headers: { 'last-event-id': '2' },
        });
        expect(resumed.events.map((event) => JSON.parse(event.data))).toEqual(events.slice(2));
        const last = events.at(-1)?.data;
        expect(last?.type).toBe('run.finished');
        // SIGTERM is never worse than SIGKILL: a run stopped mid-payment completes either way.
        expect(last?.status).toBe('completed');

        // One instance at a time: each takes over once, with run.resumed naming it, and the one
        // before never writes again.
        const stretches = workStretches(events);
        const names = stretches.map((stretch) => stretch.instance);
        expect(names).not.toContain('api-only');
        expect(new Set(names).size).toBe(names.length);
        for (const stretch of stretches.slice(1)) {
          expect(stretch.first.data).toMatchObject({
            type: 'run.resumed',
            instance: stretch.instance,
          });
          const before = events[stretch.first.seq - 2] as StreamedEvent;
          if (before.instance === 'instance-1') takeovers.push(stretch.first.at - before.at);
        }

        // The run paid exactly once.
        const paid = upstream.payments.filter((payment) =>
          payment.idempotencyKey?.startsWith(`${id}:`),
        );
        expect(paid).toHaveLength(1);
      }
      // Each effect once: no key paid twice, and every payment carried a key.
      const keys = upstream.payments.map((payment) => payment.idempotencyKey);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.every((key) => key !== undefined)).toBe(true);
      // Some payments were interrupted and made again: the upstream answered those from its
      // first result.
      expect(upstream.paymentRequests).toBeGreaterThan(upstream.payments.length);
      // The SIGKILLed instance's runs moved on.
      expect(takeovers.length).toBeGreaterThan(0);
      console.log(
        `takeovers after SIGKILL: ${takeovers.length}, from the dead worker's last event to run.resumed: max ${Math.max(...takeovers)} ms; handed back on SIGTERM: ${
          streams.filter((events) => events.some((event) => event.data.type === 'run.handed_back'))
            .length
        }; payments ${upstream.payments.length} from ${upstream.paymentRequests} requests for ${RUNS} runs`,
      );
    });
  },
);
