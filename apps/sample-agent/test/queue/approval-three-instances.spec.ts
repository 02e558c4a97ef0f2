import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { RedisServer } from '@toolshield/redis/testing';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { RUN_QUEUE_NAME } from '../../src/queue/redis-connection.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import {
  decide,
  finishedRun,
  startRun,
  untilAwaitingApproval,
  type RunView,
} from '../fixtures/approvals.js';
import { describeWithQueueServices } from '../fixtures/queue-services.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { freshPostgresDatabase, TEST_DATABASE_URL } from '../fixtures/stores.js';

jest.setTimeout(120_000);

describeWithQueueServices(
  'a run waiting for approval on three instances (BullMQ on a real redis-server, PostgreSQL)',
  () => {
    let redis: RedisServer;
    let upstream: FixtureUpstream;
    let drop: () => Promise<void>;
    let instances: ServerProcess[] = [];
    const names = ['instance-1', 'instance-2', 'instance-3'];

    beforeAll(async () => {
      buildApp();
      const [server, database, fixture] = await Promise.all([
        RedisServer.start(),
        freshPostgresDatabase(TEST_DATABASE_URL as string),
        startFixtureUpstream(),
      ]);
      redis = server;
      upstream = fixture;
      drop = database.drop;
      const env = (name: string) => ({
        DATABASE_URL: database.url,
        TOOLSHIELD_STORE: undefined,
        REDIS_URL: redis.url,
        UPSTREAM_URL: upstream.url,
        INSTANCE_ID: name,
        RUN_CONCURRENCY: '2',
        RUN_LOCK_MS: '1000',
        RUN_STALLED_INTERVAL_MS: '500',
        PAYMENT_APPROVAL_ABOVE: undefined,
      });
      // The first one migrates the database; the others find it up to date.
      instances = [await startServerProcess(env(names[0] as string))];
      instances.push(...(await Promise.all(names.slice(1).map((n) => startServerProcess(env(n))))));
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
      await upstream?.close();
      await redis?.stop();
      await drop?.();
    });

    it('holds no worker while it waits; with its worker SIGKILLed, the approval posted to the other instances (both at once: one wins) resumes it, and the upstream counts one payment', async () => {
      const [entry] = instances as [ServerProcess];
      const id = await startRun(entry.baseUrl);
      const { waiting, approvalId } = await untilAwaitingApproval(entry.baseUrl, id);
      // The job that ran up to the wait ends: no worker holds the run while it waits.
      const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
      const queue = new Queue(RUN_QUEUE_NAME, { connection });
      // BullMQ leaves connections it is given open: both are ours to close, or ioredis
      // reconnects to the stopped Redis forever and Jest never exits.
      const eventsConnection = connection.duplicate();
      const queueEvents = new QueueEvents(RUN_QUEUE_NAME, { connection: eventsConnection });
      try {
        await queueEvents.waitUntilReady();
        await (await queue.getJob(id))?.waitUntilFinished(queueEvents);
        expect(await queue.getActiveCount()).toBe(0);
      } finally {
        await Promise.all([queue.close(), queueEvents.close()]);
        connection.disconnect();
        eventsConnection.disconnect();
      }
      const stored = (await (await fetch(`${entry.baseUrl}/api/runs/${id}`)).json()) as RunView;
      expect(stored.status).toBe('awaiting_approval');
      const owner = instances[names.indexOf(waiting.instance as string)] as ServerProcess;
      await owner.stop('SIGKILL');
      const [one, other] = instances.filter((instance) => instance !== owner) as [
        ServerProcess,
        ServerProcess,
      ];

      // Followed from one survivor while a decision reaches each of them at once.
      const followed = finishedRun(other.baseUrl, id, waiting.seq);
      const answers = await Promise.all([
        decide(one.baseUrl, approvalId, { decision: 'approve', by: 'first click' }),
        decide(other.baseUrl, approvalId, { decision: 'approve', by: 'second click' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);

      const { run, events } = await followed;
      expect(run.status).toBe('completed');
      const types = events.map((event) => event.data.type);
      expect(types[0]).toBe('run.resumed');
      expect(types).toContain('approval.approved');
      // Worked after the wait by a live instance, not the dead owner.
      const workers = new Set(events.map((event) => event.instance));
      expect(workers.has(waiting.instance)).toBe(false);
      const paid = upstream.payments.filter((payment) =>
        payment.idempotencyKey?.startsWith(`${id}:`),
      );
      expect(paid).toHaveLength(1);
      expect(upstream.paymentRequests).toBe(1);
      expect(run.finalAnswer).toContain(`Paid INV-2048 (${paid[0]?.id})`);
    });
  },
);
