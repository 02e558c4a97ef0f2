import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { WaitingError, Worker, type Job } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import { QUEUE_SETTINGS, type QueueSettings } from './queue-settings.js';
import { redisConnection, RUN_QUEUE_NAME, type RunJobData } from './redis-connection.js';

/** Times a run may be taken from a dead worker before its job is given up as failed. */
const MAX_TAKEOVERS = 10;

/**
 * This instance's BullMQ worker: takes queued runs, `concurrency` at a time, and works each
 * with {@link AgentRunsService.work} under the job's lock, which the worker renews while it
 * lives. A worker that dies stops renewing: after `lockMs` another instance's stalled check
 * (every `stalledIntervalMs`) puts the job back and a worker resumes the run. Before a call
 * with an effect the lock is renewed; a worker that cannot renew it lets the run go without
 * making the call. On shutdown it takes no more runs, lets its runs finish for up to
 * `shutdownGraceMs`, then hands the rest back to the queue, where other instances continue
 * them; a run in the middle of a call with an effect (a payment) is handed back once that
 * call has ended, within the call's own timeout, with its result recorded.
 */
@Injectable()
export class RunWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker?: Worker<RunJobData>;
  private connection?: ReturnType<typeof redisConnection>;
  /** The runs worked here, by job id: aborting one stops its run between steps. */
  private readonly handBacks = new Map<string, AbortController>();
  /** Jobs whose lock this worker could not renew: another instance may have them now. */
  private readonly lost = new Set<string>();

  constructor(
    private readonly runs: AgentRunsService,
    @Inject(QUEUE_SETTINGS) private readonly settings: QueueSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.worker) return;
    this.connection = redisConnection(this.settings.redisUrl, `${this.settings.instanceId}:worker`);
    this.worker = new Worker<RunJobData>(RUN_QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: this.connection,
      concurrency: this.settings.concurrency,
      lockDuration: this.settings.lockMs,
      stalledInterval: this.settings.stalledIntervalMs,
      maxStalledCount: MAX_TAKEOVERS,
      name: this.settings.instanceId,
    });
    this.worker.on('error', (error) => console.error(`run worker: ${error.message}`));
    // Stalled too long (a blocked event loop): stop, since another instance may resume it.
    this.worker.on('lockRenewalFailed', (jobIds) => {
      for (const jobId of jobIds) {
        this.lost.add(jobId);
        this.handBacks.get(jobId)?.abort();
      }
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const closed = worker.close(); // no new jobs; resolves once the running ones are done
    const grace = new AbortController();
    await Promise.race([
      closed,
      sleep(this.settings.shutdownGraceMs, undefined, { signal: grace.signal }).catch(
        () => undefined,
      ),
    ]);
    grace.abort();
    for (const handBack of this.handBacks.values()) handBack.abort();
    await closed;
    this.connection?.disconnect();
  }

  private async process(job: Job<RunJobData>, token: string | undefined): Promise<void> {
    const jobId = job.id as string;
    const handBack = new AbortController();
    this.handBacks.set(jobId, handBack);
    const renew = async (): Promise<boolean> => {
      const renewed = await job.extendLock(token ?? '', this.settings.lockMs).catch(() => 0);
      if (renewed === 1) return true;
      this.lost.add(jobId);
      handBack.abort();
      return false;
    };
    try {
      const end = await this.runs.work(job.data.runId, { signal: handBack.signal, renew });
      if (end !== 'handed-back') return;
      // A lost lock: the job is the stalled check's now; otherwise put it back ourselves.
      if (!this.lost.has(jobId)) await job.moveToWait(token);
      throw new WaitingError();
    } finally {
      this.handBacks.delete(jobId);
      this.lost.delete(jobId);
    }
  }
}
