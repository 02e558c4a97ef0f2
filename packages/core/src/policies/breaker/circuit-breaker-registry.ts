import type { Clock } from '../../clock/clock.js';
import { systemClock } from '../../clock/system-clock.js';
import type { BreakerStateChangedEvent } from '../../events/tool-event.js';
import { BucketRotation } from './bucket-rotation.js';
import {
  resolveCircuitBreakerOptions,
  type CircuitBreakerOptions,
} from './circuit-breaker-options.js';
import { InMemoryCircuitBreakerStore, type CircuitBreakerStore } from './circuit-breaker-store.js';
import { ToolCircuitBreaker } from './circuit-breaker.js';

/** @publicApi */
export interface CircuitBreakerRegistryOptions {
  /** Default: the shared `SystemClock`. */
  readonly clock?: Clock;
  /** Options every breaker starts from; `get` can override them per breaker. */
  readonly defaults?: CircuitBreakerOptions;
  /** Where snapshots are saved on every state change (default: in memory). */
  readonly store?: CircuitBreakerStore;
  /** Told about every state change of every breaker. */
  readonly onStateChange?: (event: BreakerStateChangedEvent) => void;
  /** Told when saving a snapshot fails (the breaker keeps working). */
  readonly onStoreError?: (error: unknown, key: string) => void;
}

/** Per-breaker settings for {@link CircuitBreakerRegistry.get}. @publicApi */
export interface CircuitBreakerRegistration extends CircuitBreakerOptions {
  /** The tool the breaker protects (default: the key). */
  readonly tool?: string;
}

/**
 * One {@link ToolCircuitBreaker} per key (a tool name, or a tool plus tenant, host, ...).
 * Breakers with the same window share one {@link BucketRotation}, so a thousand breakers
 * cost no timer at all while closed. Every state change is reported to `onStateChange` and
 * saved to the store; `load` restores a breaker from it. `dispose()` stops every breaker.
 *
 * @example
 * const breakers = new CircuitBreakerRegistry({ clock, onStateChange: (e) => events.next(e) });
 * const value = await breakers.get(`search:${tenant}`, { tool: 'search' }).execute(() => search(q));
 * @publicApi
 */
export class CircuitBreakerRegistry {
  private readonly clock: Clock;
  private readonly store: CircuitBreakerStore;
  private readonly breakers = new Map<string, ToolCircuitBreaker>();
  private readonly rotations = new Map<string, BucketRotation>();

  constructor(private readonly options: CircuitBreakerRegistryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new InMemoryCircuitBreakerStore();
  }

  /** The breaker for `key`, created on first use (`registration` applies only then). */
  get(key: string, registration: CircuitBreakerRegistration = {}): ToolCircuitBreaker {
    const existing = this.breakers.get(key);
    if (existing !== undefined) return existing;
    const { tool = key, ...overrides } = registration;
    const options = resolveCircuitBreakerOptions(this.options.defaults, overrides);
    const breaker = new ToolCircuitBreaker(options, {
      clock: this.clock,
      key,
      tool,
      rotation: this.rotation(options.rollingWindowMs, options.rollingBuckets),
      onStateChange: (event) => this.changed(breaker, event),
      ...(this.store.sharedWindow === undefined ? {} : { shared: this.store.sharedWindow }),
    });
    this.breakers.set(key, breaker);
    this.store.attach?.(breaker);
    return breaker;
  }

  /** Like {@link get}, then takes over the snapshot the store holds for `key`, if any. */
  async load(key: string, registration?: CircuitBreakerRegistration): Promise<ToolCircuitBreaker> {
    const breaker = this.get(key, registration);
    const snapshot = await this.store.get(key);
    if (snapshot !== undefined) breaker.hydrate(snapshot);
    return breaker;
  }

  /** Saves every breaker's snapshot (its window counts included) to the store. */
  async saveAll(): Promise<void> {
    await Promise.all(
      [...this.breakers.values()].map((breaker) => this.store.set(breaker.key, breaker.snapshot())),
    );
  }

  /** The breaker for `key`, if one was created. */
  find(key: string): ToolCircuitBreaker | undefined {
    return this.breakers.get(key);
  }

  /** Every breaker, for health checks and admin endpoints. */
  all(): readonly ToolCircuitBreaker[] {
    return [...this.breakers.values()];
  }

  /** Disposes and forgets the breaker for `key`. */
  delete(key: string): void {
    this.breakers.get(key)?.dispose();
    this.breakers.delete(key);
  }

  /** Disposes every breaker; nothing is left running. */
  dispose(): void {
    for (const breaker of this.breakers.values()) breaker.dispose();
    this.breakers.clear();
    this.rotations.clear();
  }

  private rotation(windowMs: number, buckets: number): BucketRotation {
    const id = `${windowMs}/${buckets}`;
    let rotation = this.rotations.get(id);
    if (rotation === undefined) {
      rotation = new BucketRotation(this.clock, windowMs, buckets);
      this.rotations.set(id, rotation);
    }
    return rotation;
  }

  private changed(breaker: ToolCircuitBreaker, event: BreakerStateChangedEvent): void {
    this.options.onStateChange?.(event);
    this.store
      .set(breaker.key, breaker.snapshot())
      .catch((error: unknown) => this.options.onStoreError?.(error, breaker.key));
  }
}
