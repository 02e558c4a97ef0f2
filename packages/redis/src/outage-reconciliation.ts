import type { Clock } from '@toolshield/core';
import type { BreakerHandle, SharedWindowCounts } from '@toolshield/core/internal';
import { bucketsOf, totalOf, windowOf, type Tally } from './breaker-window-buckets.js';
import type { BreakerStateSync } from './breaker-state-sync.js';
import { countsIn, OutageCounts } from './outage-counts.js';
import type { BreakerCommands, ScriptReply } from './redis-breaker-commands.js';

/** What reconciliation does with what it learns (the window sync keeps the others' counts). */
export interface ReconciliationListener {
  /** The other instances' counts in `key`'s shared window, as the merge read them. */
  readonly onRemoteCounts: (key: string, counts: SharedWindowCounts) => void;
}

/**
 * The breaker store's outage reconciliation (ADR 0022). While Redis is away each breaker
 * decides alone, and the counts this instance makes are kept for the span of its window;
 * when Redis answers again the instance joins each breaker's shared state (writing its own
 * when Redis lost it). When that state is closed, the kept counts that are still in the
 * window go into the breaker's own window as it follows, and into the shared window in one
 * script, once: the merged window then decides whether the breaker opens.
 */
export class OutageReconciliation {
  /** Counts made while Redis was away: added to the shared window when it is back. */
  private readonly unsent = new OutageCounts();

  constructor(
    private readonly commands: BreakerCommands,
    private readonly clock: Clock,
    private readonly state: BreakerStateSync,
    private readonly listener: ReconciliationListener,
  ) {}

  /** Keeps `counts` of `breaker`, made while Redis is away, for its window's span. */
  keep(breaker: BreakerHandle, counts: Tally): void {
    this.unsent.keep(breaker, counts, this.clock.now());
  }

  /** Forgets what `key` counted while away (it closed again on its own: that starts over). */
  forget(key: string): void {
    this.unsent.forget(key);
  }

  /** Joins every breaker's shared state again (Redis answers again). */
  async rejoin(breakers: Iterable<BreakerHandle>): Promise<void> {
    await Promise.all([...breakers].map((breaker) => this.join(breaker)));
  }

  /**
   * Joins again each breaker whose outage counts are still kept while Redis answers: a join
   * that failed (a command timeout on a Redis just restarted) put them back, and no 'ready'
   * may come to take them.
   */
  joinAgainWithUnsent(breakers: ReadonlyMap<string, BreakerHandle>): void {
    for (const key of this.unsent.keys()) {
      const breaker = breakers.get(key);
      if (breaker !== undefined) void this.join(breaker);
    }
  }

  /**
   * Follows the shared state of `breaker` (or writes its own when Redis lost it), and merges
   * the counts kept while Redis was away when that state is closed.
   */
  async join(breaker: BreakerHandle): Promise<void> {
    // The command connection's own 'ready' joins again, and takes the unsent counts with it.
    if (!this.commands.reachable()) return;
    const { key } = breaker;
    const unsent = this.unsent.take(key);
    const snapshot = breaker.snapshot();
    const knownBefore = this.state.knownOf(key);
    let reply: ScriptReply;
    try {
      reply = await this.commands.join(
        key,
        snapshot.state,
        String(snapshot.openedAt ?? snapshot.savedAt),
      );
    } catch {
      // Still degraded: the counts wait for the next 'ready', which joins again.
      if (unsent !== undefined) this.unsent.putBack(key, unsent);
      return;
    }
    const [, state, version, openedAt] = reply;
    const window = windowOf(breaker, this.clock.now());
    const own = state === 'closed' && unsent !== undefined ? countsIn(unsent, window) : undefined;
    // The hash is taken as it is (a restarted Redis counts versions from 1 again), unless a
    // newer state arrived while the script ran: a reply older than it must not undo it.
    this.state.forgetUnlessChanged(key, knownBefore);
    this.state.apply(key, state, Number(version), openedAt, own && totalOf(own));
    if (own === undefined) return;
    const others = await this.merge(breaker, Number(version), window, own);
    if (others === undefined || this.state.knownOf(key)?.version !== Number(version)) return;
    this.listener.onRemoteCounts(key, others);
    breaker.reconsider();
  }

  /**
   * Adds `own` (counts by bucket of `window`) to the shared window of `version`; resolves the
   * other instances' counts, or undefined when nothing was added.
   */
  private async merge(
    breaker: BreakerHandle,
    version: number,
    window: readonly number[],
    own: readonly Tally[],
  ): Promise<SharedWindowCounts | undefined> {
    const { bucketMs } = bucketsOf(breaker);
    const ttlMs = breaker.options.rollingWindowMs + bucketMs;
    try {
      const [added, successes, failures] = await this.commands.merge(
        { key: breaker.key, version, window, bucketMs, ttlMs },
        own,
      );
      return added === 1 ? { successes, failures } : undefined;
    } catch {
      // Whether the script ran is unknown: the counts are not sent again (never twice).
      return undefined;
    }
  }
}
