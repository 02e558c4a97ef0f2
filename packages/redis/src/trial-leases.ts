import type { Clock } from '@toolshield/core';
import type { BreakerCommands, ScriptReply } from './redis-breaker-commands.js';
import { TrialSlots } from './trial-slots.js';

/**
 * The breaker store's half-open trial slots in Redis: taken by a Lua script, so the
 * instances together never run more trials than `halfOpenMaxCalls`, each under a lease of
 * `leaseMs` that this instance renews while it holds the slot (see {@link TrialSlots.due}),
 * so the slot of an instance that died holding it is freed when its lease ends. A trial's
 * success is decided there too: once `max` succeeded, on whichever instances, the breaker
 * closes everywhere. While Redis is away, the local slots alone hold.
 */
export class TrialLeases {
  private readonly slots: TrialSlots;

  constructor(
    private readonly commands: BreakerCommands,
    private readonly clock: Clock,
    leaseMs: number,
    /** Takes over the state a script reply says the hash holds. */
    private readonly follow: (key: string, reply: ScriptReply) => void,
  ) {
    this.slots = new TrialSlots(commands.instanceId, leaseMs);
  }

  get leaseMs(): number {
    return this.slots.leaseMs;
  }

  /** Takes one of the `max` shared slots: true when the trial may run (also when Redis is away). */
  async acquire(key: string, max: number): Promise<boolean> {
    if (!this.commands.reachable()) return true;
    const slot = this.slots.next();
    try {
      const taken = await this.commands.acquireTrial(key, max, slot, this.slots.leaseMs);
      if (taken > 0) this.slots.hold(key, slot, taken);
      return taken !== 0;
    } catch {
      // A slot the script may still have taken is not renewed: its lease frees it.
      return true;
    }
  }

  /**
   * A trial succeeded: undefined when Redis cannot take it (away, or this instance holds no
   * slot), else whether the shared state counted it.
   */
  succeeded(key: string, max: number): Promise<boolean> | undefined {
    const slot = this.slots.take(key);
    if (slot === undefined || !this.commands.reachable()) return undefined;
    return this.commands.trialSucceeded(key, slot, max, this.clock.now()).then(
      (reply) => {
        // A hash Redis lost (version 0) has no state to follow.
        if (Number(reply[2]) > 0) this.follow(key, reply);
        return reply[0] === 1;
      },
      () => false,
    );
  }

  /** Gives a slot of `key` back with no outcome. */
  release(key: string): void {
    const slot = this.slots.take(key);
    if (slot === undefined || !this.commands.reachable()) return;
    void this.commands.releaseTrial(key, slot).catch(() => undefined);
  }

  /** Forgets the slots of `key` taken at another version than `version`. */
  keep(key: string, version: number): void {
    this.slots.keep(key, version);
  }

  /** The slots whose leases are due for renewal now, by key. */
  due(): Generator<[string, string[]]> {
    return this.slots.due(this.clock.now());
  }
}
