import { Inject, Injectable } from '@nestjs/common';
import { AgentRunsService, type StartRunRequest } from './agent-runs.service.js';
import { IdempotencyKeyReusedError, runIdempotency, type RunIdempotency } from './idempotency.js';
import type { RunRecord } from './run-record.js';
import { RUN_STORE, type RunStore } from './run-store.js';

/** A run started, or found again for a retried request. */
export interface StartedRun {
  readonly run: RunRecord;
  /** The request was a retry: the run is the one the first request started. */
  readonly replayed: boolean;
}

/**
 * Starts runs, once per `Idempotency-Key`: the key is stored with the run, so a retried
 * request (a timeout, a lost answer) gets the run the first one started, even after a
 * restart. Requests with one key take turns in this process; the store's unique key settles
 * a race between processes.
 */
@Injectable()
export class IdempotentRunStarter {
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly runs: AgentRunsService,
    @Inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  /**
   * @throws InvalidRunRequestError for a bad request or key;
   * IdempotencyKeyReusedError when the key was used for another request.
   */
  async start(request: StartRunRequest, key: string | undefined): Promise<StartedRun> {
    if (key === undefined) return { run: await this.runs.start(request), replayed: false };
    const idempotency = runIdempotency(key, request);
    const previous = this.turns.get(key) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.startOnce(request, idempotency));
    this.turns.set(key, turn);
    try {
      return await turn;
    } finally {
      if (this.turns.get(key) === turn) this.turns.delete(key);
    }
  }

  private async startOnce(
    request: StartRunRequest,
    idempotency: RunIdempotency,
  ): Promise<StartedRun> {
    const known = await this.known(idempotency);
    if (known) return known;
    try {
      return { run: await this.runs.start(request, idempotency), replayed: false };
    } catch (error) {
      // Another process stored the key first (the unique index refused this one).
      const stored = await this.known(idempotency);
      if (stored) return stored;
      throw error;
    }
  }

  private async known(idempotency: RunIdempotency): Promise<StartedRun | undefined> {
    const found = await this.store.runByIdempotencyKey(idempotency.key);
    if (!found) return undefined;
    if (found.fingerprint !== idempotency.fingerprint) {
      throw new IdempotencyKeyReusedError(idempotency.key);
    }
    return { run: found.run, replayed: true };
  }
}
