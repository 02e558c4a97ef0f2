import type { CircuitState } from '../../events/tool-event.js';
import type { SharedBreakerWindow } from './shared-breaker-window.js';

/**
 * A breaker's state as plain JSON, to share it between processes or keep it across restarts.
 *
 * @publicApi
 */
export interface CircuitBreakerSnapshot {
  readonly state: CircuitState;
  /** When the breaker last opened, in clock ms (open and half-open breakers). */
  readonly openedAt?: number;
  /** The rolling window's counts (closed breakers). */
  readonly window?: { readonly successes: number; readonly failures: number };
  /** Clock time the snapshot was taken. */
  readonly savedAt: number;
}

/**
 * Where breaker snapshots are kept, keyed by breaker key. Implement it over Redis, SQL, ...
 * to share breaker state between instances; the default keeps it in memory. Provide an
 * implementation under the same-named token in Nest.
 *
 * @publicApi
 */
export interface CircuitBreakerStore {
  get(key: string): Promise<CircuitBreakerSnapshot | undefined>;
  set(key: string, snapshot: CircuitBreakerSnapshot): Promise<void>;
  /**
   * Optional: the window and trial slots shared with other instances. A registry built on
   * this store hands it to every breaker it creates (see {@link SharedBreakerWindow}).
   */
  readonly sharedWindow?: SharedBreakerWindow;
  /**
   * Optional: told about every breaker a registry on this store creates, so the store can
   * apply other instances' state changes to it (with `hydrate`).
   */
  attach?(breaker: BreakerHandle): void;
}

/** What a store that shares state sees of a breaker. @publicApi */
export interface BreakerHandle {
  readonly key: string;
  readonly state: CircuitState;
  readonly options: { readonly rollingWindowMs: number; readonly rollingBuckets: number };
  snapshot(): CircuitBreakerSnapshot;
  hydrate(snapshot: CircuitBreakerSnapshot): void;
  /** Opens a closed breaker when its local and shared counts call for it. */
  reconsider(): void;
}

/** Injection token for {@link CircuitBreakerStore} (the interface and the token share a name). @publicApi */
export const CircuitBreakerStore = Symbol('CircuitBreakerStore');

/**
 * The default {@link CircuitBreakerStore}: a map in this process.
 *
 * @publicApi
 */
export class InMemoryCircuitBreakerStore implements CircuitBreakerStore {
  private readonly snapshots = new Map<string, CircuitBreakerSnapshot>();

  get(key: string): Promise<CircuitBreakerSnapshot | undefined> {
    return Promise.resolve(this.snapshots.get(key));
  }

  set(key: string, snapshot: CircuitBreakerSnapshot): Promise<void> {
    this.snapshots.set(key, snapshot);
    return Promise.resolve();
  }
}
