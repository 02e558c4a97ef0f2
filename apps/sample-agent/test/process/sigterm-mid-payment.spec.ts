import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { RedisServer } from '@toolshield/redis/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import type { Payment } from '../../src/upstream/payments.js';
import { describeWithQueueServices } from '../fixtures/queue-services.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { readEventStream } from '../fixtures/sse-client.js';
import {
  freshPostgresDatabase,
  freshSqliteDirectory,
  TEST_DATABASE_URL,
} from '../fixtures/stores.js';

jest.setTimeout(90_000);

/** Shorter than the fixture's payment, which answers a second after it takes effect. */
const GRACE_MS = '250';

/** A process manager's own grace before its SIGKILL: past ours, short of the payment's answer. */
const PROCESS_MANAGER_GRACE_MS = 500;

/** A run's record as `GET /api/runs/:id` returns it, in the parts these specs read. */
interface RunView {
  readonly status: string;
  readonly finalAnswer?: string;
  readonly toolCalls: readonly { tool: string; status: string }[];
}

/** One event of a run's stream. */
interface StreamedEvent {
  readonly instance?: string;
  readonly data: { readonly type: string; readonly tool?: string };
}

/**
 * The payment world of these specs: a fixture upstream that counts effects, and a way to
 * wait until it has taken a given run's payment (made, not yet answered).
 */
function paymentUpstream() {
  const waiting = new Map<string, () => void>();
  let upstream: FixtureUpstream;
  const ofRun = (runId: string, payment: Payment) =>
    payment.idempotencyKey?.startsWith(`${runId}:`) === true;
  return {
    start: async () => {
      upstream = await startFixtureUpstream({
        onPayment: (payment) => {
          for (const [runId, resolve] of waiting) if (ofRun(runId, payment)) resolve();
        },
      });
      return upstream.url;
    },
    close: () => upstream?.close(),
    /** Resolves once the upstream made the run's payment (its answer comes a second later). */
    paymentTaken: (runId: string) => new Promise<void>((resolve) => waiting.set(runId, resolve)),
    /** The effects the upstream made for the run. */
    paymentsOf: (runId: string) => upstream.payments.filter((payment) => ofRun(runId, payment)),
  };
}

async function startPayment(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'Pay invoice INV-1042: 120 EUR.', scenario: 'pay-invoice' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The run once it finished, read on `server`: its record and its event types. */
async function finishedRun(server: ServerProcess, id: string) {
  const { events } = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
  const run = (await (await fetch(`${server.baseUrl}/api/runs/${id}`)).json()) as RunView;
  return {
    run,
    types: events.map((event) => (JSON.parse(event.data) as StreamedEvent).data.type),
    payCalls: run.toolCalls.filter((call) => call.tool === 'pay_invoice').map((c) => c.status),
  };
}

// SIGTERM must never be worse than SIGKILL. After a SIGKILL mid-payment the run's next worker
// repeats the call under its idempotency key and completes with the first payment. A SIGTERM
// whose grace ran out mid-payment used to cut the call, record it `cancelled`, and the next
// worker's model stopped with "I could not get the payment" although the upstream had paid.

beforeAll(() => buildApp());

describe('SIGTERM mid-payment, a grace shorter than the payment, one instance (SQLite)', () => {
  const payments = paymentUpstream();
  const servers: ServerProcess[] = [];
  let dir: ReturnType<typeof freshSqliteDirectory>;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    dir = freshSqliteDirectory();
    env = {
      TOOLSHIELD_DATA_DIR: dir.dir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      TOOLSHIELD_STORE: undefined,
      UPSTREAM_URL: await payments.start(),
      TOOLSHIELD_SHUTDOWN_GRACE_MS: GRACE_MS,
    };
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await payments.close();
    await dir?.drop();
  });

  it('leaves the run as a crash would; the restart completes it with the first payment', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    const id = await startPayment(first);
    await payments.paymentTaken(id);
    await first.stop('SIGTERM');
    expect(first.child.exitCode).toBe(0);
    expect(first.output()).toContain('1 run(s) still in progress after 250 ms');

    const second = await startServerProcess(env);
    servers.push(second);
    const { run, types, payCalls } = await finishedRun(second, id);
    expect(types).toContain('run.resumed');
    expect(run.status).toBe('completed');
    const paid = payments.paymentsOf(id);
    expect(paid).toHaveLength(1);
    expect(run.finalAnswer).toContain(`(${paid[0]?.id})`);
    // The interrupted call, then its repeat under the same key, answered from the first.
    expect(payCalls).toEqual(['interrupted', 'succeeded']);
  });
});

describeWithQueueServices(
  'SIGTERM mid-payment, a grace shorter than the payment, three instances (Redis, PostgreSQL)',
  () => {
    const payments = paymentUpstream();
    let redis: RedisServer;
    let drop: () => Promise<void>;
    let instances: ServerProcess[] = [];
    const names = ['instance-1', 'instance-2', 'instance-3'];

    beforeAll(async () => {
      const [server, database, upstreamUrl] = await Promise.all([
        RedisServer.start(),
        freshPostgresDatabase(TEST_DATABASE_URL as string),
        payments.start(),
      ]);
      redis = server;
      drop = database.drop;
      const env = (name: string) => ({
        DATABASE_URL: database.url,
        TOOLSHIELD_STORE: undefined,
        REDIS_URL: redis.url,
        UPSTREAM_URL: upstreamUrl,
        INSTANCE_ID: name,
        RUN_CONCURRENCY: '2',
        RUN_LOCK_MS: '1000',
        RUN_STALLED_INTERVAL_MS: '500',
        TOOLSHIELD_SHUTDOWN_GRACE_MS: GRACE_MS,
      });
      // The first one migrates the database; the others find it up to date.
      instances = [await startServerProcess(env(names[0] as string))];
      instances.push(...(await Promise.all(names.slice(1).map((n) => startServerProcess(env(n))))));
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
      await payments.close();
      await redis?.stop();
      await drop?.();
    });

    const alive = () =>
      instances.filter(({ child }) => child.exitCode === null && child.signalCode === null);

    /** Starts a payment run and resolves, once the upstream took its payment, with its worker. */
    async function payingRun(): Promise<{ id: string; worker: ServerProcess }> {
      const [entry] = alive();
      const id = await startPayment(entry as ServerProcess);
      const taken = payments.paymentTaken(id);
      const worker = await new Promise<string>((resolve) => {
        void readEventStream(`${entry?.baseUrl}/api/runs/${id}/events`, {
          onEvent: (event) => {
            const { instance, data } = JSON.parse(event.data) as StreamedEvent;
            if (data.type === 'call.started' && data.tool === 'pay_invoice' && instance) {
              resolve(instance);
            }
          },
        }).catch(() => undefined);
      });
      await taken;
      return { id, worker: instances[names.indexOf(worker)] as ServerProcess };
    }

    it('hands the run back once the payment answered; another instance completes it with that payment, one effect at the upstream', async () => {
      const { id, worker } = await payingRun();
      await worker.stop('SIGTERM');
      expect(worker.child.exitCode).toBe(0);

      const { run, types, payCalls } = await finishedRun(alive()[0] as ServerProcess, id);
      expect(types).toContain('run.handed_back');
      expect(types).toContain('run.resumed');
      expect(run.status).toBe('completed');
      const paid = payments.paymentsOf(id);
      expect(paid).toHaveLength(1);
      expect(run.finalAnswer).toContain(`(${paid[0]?.id})`);
      // The payment's own answer, recorded before the hand-back: nothing to repeat.
      expect(payCalls).toEqual(['succeeded']);
    });

    it('a process manager that SIGKILLs before the payment answers is a SIGKILL: the takeover repeats it under its key', async () => {
      const { id, worker } = await payingRun();
      worker.child.kill('SIGTERM');
      // A process manager's clock, not the service's: its own grace, then SIGKILL.
      await sleep(PROCESS_MANAGER_GRACE_MS);
      await worker.stop('SIGKILL');
      expect(alive().map((instance) => instance.baseUrl)).toHaveLength(1);

      const { run } = await finishedRun(alive()[0] as ServerProcess, id);
      expect(run.status).toBe('completed');
      const paid = payments.paymentsOf(id);
      expect(paid).toHaveLength(1);
      expect(run.finalAnswer).toContain(`(${paid[0]?.id})`);
    });
  },
);
