import type { Clock } from '@toolshield/core';
import type { CircuitState } from '@toolshield/core/events';
import type {
  BreakerHandle,
  CircuitBreakerSnapshot,
  SharedWindowCounts,
} from '@toolshield/core/internal';
import type { BreakerCommands, ScriptReply } from './redis-breaker-commands.js';

/** A state change as published on the channel. */
interface PublishedTransition {
  readonly key: string;
  readonly state: CircuitState;
  readonly openedAt: string;
  readonly version: number;
  readonly origin: string;
}

/** What this instance last knew of a breaker's shared hash. */
interface KnownState {
  readonly state: CircuitState;
  readonly version: number;
}

/** What the state sync tells the other parts. */
export interface StateSyncListener {
  /** A breaker's shared state moved to `version`: what belonged to an earlier one is void. */
  readonly onVersion: (key: string, version: number) => void;
  /** Another instance counted new failures: read the window again now. */
  readonly onNudge: () => void;
}

/**
 * The breaker store's state sync: transitions run as Lua scripts on one hash per breaker,
 * from the state this instance last knew (the first instance to move wins, the others
 * follow), and every applied transition is published; the states the other instances
 * publish, and those script replies say the hash holds, are applied to this instance's
 * breakers (with `hydrate`) when they are newer than what it knew.
 */
export class BreakerStateSync {
  private readonly known = new Map<string, KnownState>();
  /** The breaker whose state is being applied from the shared state (not to be sent back). */
  private applying?: string;

  constructor(
    private readonly commands: BreakerCommands,
    private readonly clock: Clock,
    private readonly breakers: ReadonlyMap<string, BreakerHandle>,
    private readonly listener: StateSyncListener,
  ) {}

  /** The shared state of `key`, when Redis holds one. */
  async get(key: string): Promise<CircuitBreakerSnapshot | undefined> {
    const hash = await this.commands.read(key);
    if (hash.state === undefined) return undefined;
    this.remember(key, hash.state as CircuitState, Number(hash.version));
    return this.snapshotOf(hash.state as CircuitState, hash.openedAt ?? '');
  }

  /** Whether `key`'s state is being applied from the shared state now. */
  isApplying(key: string): boolean {
    return this.applying === key;
  }

  /** Shares a transition of this instance's breaker, and follows what the hash holds. */
  async share(key: string, snapshot: CircuitBreakerSnapshot): Promise<void> {
    const from = this.known.get(key)?.state ?? 'closed';
    const openedAt = String(snapshot.openedAt ?? snapshot.savedAt);
    this.follow(
      key,
      await this.commands.transition(key, from, snapshot.state, openedAt, this.now()),
    );
  }

  /** The version of `key`'s shared state this instance knows (0: none). */
  version(key: string): number {
    return this.known.get(key)?.version ?? 0;
  }

  /** What this instance knows of `key`, to tell whether it changed meanwhile. */
  knownOf(key: string): KnownState | undefined {
    return this.known.get(key);
  }

  /** Forgets what this instance knew of `key`, unless it changed since `before`. */
  forgetUnlessChanged(key: string, before: KnownState | undefined): void {
    if (this.known.get(key) === before) this.known.delete(key);
  }

  /** A message on the channel: another instance's transition, or its nudge. */
  received(message: string): void {
    let change: PublishedTransition | { readonly nudge: true; readonly origin: string };
    try {
      change = JSON.parse(message) as PublishedTransition;
    } catch {
      return;
    }
    if (change.origin === this.commands.instanceId) return;
    if ('nudge' in change) {
      this.listener.onNudge();
      return;
    }
    this.apply(change.key, change.state, change.version, change.openedAt);
  }

  /** Takes over the state a script reply says the hash holds, when it is newer. */
  follow(key: string, [, state, version, openedAt]: ScriptReply): void {
    this.apply(key, state, Number(version), openedAt);
  }

  /** Takes over a newer shared state; a breaker that closes starts with `window` counted. */
  apply(
    key: string,
    state: CircuitState,
    version: number,
    openedAt: string,
    window?: SharedWindowCounts,
  ): void {
    const known = this.known.get(key);
    if (known !== undefined && known.version >= version) return;
    this.remember(key, state, version);
    const breaker = this.breakers.get(key);
    if (breaker === undefined || breaker.state === state) return;
    this.applying = key;
    try {
      breaker.hydrate(this.snapshotOf(state, openedAt, window));
    } finally {
      this.applying = undefined;
    }
  }

  private remember(key: string, state: CircuitState, version: number): void {
    this.listener.onVersion(key, version);
    this.known.set(key, { state, version });
  }

  private snapshotOf(
    state: CircuitState,
    openedAt: string,
    window?: SharedWindowCounts,
  ): CircuitBreakerSnapshot {
    const at = Number(openedAt);
    return {
      state,
      savedAt: this.now(),
      ...(state === 'open' || state === 'half_open'
        ? { openedAt: Number.isFinite(at) && openedAt !== '' ? at : this.now() }
        : {}),
      ...(state === 'closed' && window !== undefined ? { window } : {}),
    };
  }

  private now(): number {
    return this.clock.now();
  }
}
