/** How long a trial slot stays taken without its holder renewing it (default of `trialLeaseMs`). */
export const DEFAULT_TRIAL_LEASE_MS = 5_000;

/** A slot this instance took, and the breaker version (half-open period) it belongs to. */
interface HeldSlot {
  readonly id: string;
  readonly version: number;
}

/**
 * The half-open trial slots one instance holds in Redis, by breaker key: each taken under a
 * lease of `leaseMs` that {@link TrialSlots.due} says to renew (every third of the lease) while
 * the slot is held. A slot is held until its trial's outcome or release takes it, or the
 * breaker moves to another version (a transition frees every slot).
 *
 * Worst-case size: `halfOpenMaxCalls` slots per half-open breaker (no more can be taken).
 *
 * @internal
 */
export class TrialSlots {
  private readonly held = new Map<string, HeldSlot[]>();
  private taken = 0;
  private renewAt = 0;

  constructor(
    private readonly instanceId: string,
    readonly leaseMs: number,
  ) {}

  /** A new slot id, unique to this instance. */
  next(): string {
    return `${this.instanceId}:${++this.taken}`;
  }

  /** Records a slot taken at `version` of the breaker's shared state. */
  hold(key: string, id: string, version: number): void {
    const slots = this.held.get(key);
    if (slots === undefined) this.held.set(key, [{ id, version }]);
    else slots.push({ id, version });
  }

  /** Gives up one slot of `key` (any: they are alike), for an outcome or a release. */
  take(key: string): string | undefined {
    const slots = this.held.get(key);
    const slot = slots?.shift();
    if (slots?.length === 0) this.held.delete(key);
    return slot?.id;
  }

  /** Forgets the slots of `key` taken at another version than `version`. */
  keep(key: string, version: number): void {
    const slots = this.held.get(key)?.filter((slot) => slot.version === version);
    if (slots === undefined || slots.length === 0) this.held.delete(key);
    else this.held.set(key, slots);
  }

  /** The slots to renew now (every third of the lease), by key; none when not yet due. */
  *due(now: number): Generator<[string, string[]]> {
    if (this.held.size === 0 || now < this.renewAt) return;
    this.renewAt = now + this.leaseMs / 3;
    for (const [key, slots] of this.held) yield [key, slots.map((slot) => slot.id)];
  }
}
