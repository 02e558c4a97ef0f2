import type { Clock } from '../../clock/clock.js';
import { systemClock } from '../../clock/system-clock.js';
import type { CircuitOpenError } from '../../errors/circuit-open.error.js';
import type { BreakerStateChangedEvent, CircuitState } from '../../events/tool-event.js';
import type { AbandonedAttempt } from '../timeout.js';
import type {
  BreakerCallOptions,
  CircuitBreakerDeps,
  CircuitBreakerStats,
} from './breaker-call-options.js';
import { BreakerStateMachine } from './breaker-state-machine.js';
import { BreakerWindow } from './breaker-window.js';
import { BucketRotation } from './bucket-rotation.js';
import {
  resolveCircuitBreakerOptions,
  type CircuitBreakerOptions,
  type ResolvedCircuitBreakerOptions,
} from './circuit-breaker-options.js';
import type { CircuitBreakerSnapshot } from './circuit-breaker-store.js';
import { HalfOpenTrials } from './half-open-trials.js';
import { Refusals } from './refusals.js';
import { SharedWindowDecorator } from './shared-window-decorator.js';

export type {
  BreakerCallOptions,
  CircuitBreakerDeps,
  CircuitBreakerStats,
} from './breaker-call-options.js';

/**
 * A circuit breaker for one tool or key, built over opossum and driven by our {@link Clock}.
 *
 * States: `closed` → `open` when its opening rule (the `openingRule` option, `openingRules`)
 * says so after a failure. The default rule opens on either of two signs: with at least
 * `volumeThreshold` calls in the rolling window, the failure percentage exceeds
 * `errorThresholdPercentage`; or the current run of consecutive failures is too long to be
 * chance at the window's failure rate (4 in a row after 30 successes, 20 on a cold breaker).
 * `openingRules.failureRatio` keeps the first alone. `open` → `half_open`
 * after `resetTimeoutMs`; `half_open` → `closed` once `halfOpenMaxCalls` trial calls all
 * succeeded (with a shared window that decides trials, those of every instance count
 * together), → `open` on the first trial failure; `isolate()` holds it `isolated` (open, no
 * reset) until `close()`; `open()` and `close()` force the state. While open, isolated, or
 * half-open with every trial slot taken, calls fail fast with `CircuitOpenError`
 * (`retryAfterMs` = time until half-open, when known) and the tool is not invoked.
 *
 * How opossum is used (ADR 0008): opossum supplies the rolling window, its `Status`, and
 * the decisions are ours, from that window's counts. Each call runs outside opossum, timed on
 * our clock, and is then counted in the window the way an opossum breaker counts a call it
 * fired. Opossum's own state machine is not used: its transitions run on real `setTimeout`s
 * and it allows a single half-open probe (opossum #613); firing through it also costs about
 * a microsecond a call. So every time-dependent step runs on the injected clock:
 *
 * - snapshots and percentiles are off, and bucket rotation comes from a
 *   {@link BucketRotation} (`rotateBucketController`) shared by many breakers and caught up
 *   from clock time;
 * - the only timer is the open → half-open one, set on the clock while the breaker is open;
 * - neutral errors (`isNeutral`) are not counted, neither as failure nor as success
 *   (opossum's `errorFilter` would count them as successes);
 * - a success slower than `slowCallDurationMs` (clock time) is counted as a failure;
 * - entering `closed` starts a fresh window, so old failures cannot re-open it;
 * - a half-open trial whose caller gave up keeps its slot until the attempt it left running
 *   has settled or passed its deadline (see {@link BreakerCallOptions.abandoned}), so no more
 *   trials run at once than `halfOpenMaxCalls`.
 *
 * Its parts: the states and periods, the counting window over opossum's, the half-open
 * trial slots, the refusals and, with a shared window, what sharing adds to them.
 * `dispose()` cancels the timer and shuts the window down: nothing is left running.
 *
 * @publicApi
 */
export class ToolCircuitBreaker {
  readonly key: string;
  readonly tool: string;
  readonly options: ResolvedCircuitBreakerOptions;
  private readonly clock: Clock;
  private readonly onStateChange?: (event: BreakerStateChangedEvent) => void;
  /** Whether calls are timed (only a slow-call threshold reads their duration). */
  private readonly timed: boolean;
  /** Rotates the window's buckets (the registry shares one among breakers of one window). */
  private readonly rotation: BucketRotation;
  private readonly machine: BreakerStateMachine;
  private readonly window: BreakerWindow;
  private readonly trials: HalfOpenTrials;
  private readonly refusals: Refusals;
  private readonly shared?: SharedWindowDecorator;
  private disposed = false;
  /** The success counter of the latest period (see `successCounter`). */
  private countsSuccessOf: { epoch: number; count: (value: unknown) => unknown } | undefined;

  constructor(options: CircuitBreakerOptions, deps: CircuitBreakerDeps) {
    this.options = resolveCircuitBreakerOptions(options);
    const { rollingWindowMs, rollingBuckets, halfOpenMaxCalls } = this.options;
    this.timed = this.options.slowCallDurationMs !== Number.POSITIVE_INFINITY;
    this.clock = deps.clock ?? systemClock;
    this.tool = deps.tool;
    this.key = deps.key ?? deps.tool;
    this.onStateChange = deps.onStateChange;
    this.machine = new BreakerStateMachine(this.clock, this.options.resetTimeoutMs, () =>
      this.transition('half_open'),
    );
    this.rotation =
      deps.rotation ?? new BucketRotation(this.clock, rollingWindowMs, rollingBuckets);
    this.window = new BreakerWindow(this.rotation, rollingWindowMs, rollingBuckets);
    this.trials = new HalfOpenTrials(this.clock, halfOpenMaxCalls);
    this.refusals = new Refusals(this.tool, this.key, this.machine, this.trials);
    if (deps.shared !== undefined)
      this.shared = new SharedWindowDecorator(deps.shared, this.key, halfOpenMaxCalls);
  }

  /** The current state. */
  get state(): CircuitState {
    return this.machine.state;
  }

  /** The counts in the rolling window now. */
  stats(): CircuitBreakerStats {
    const { successes, failures } = this.window.counts();
    return { successes, failures };
  }

  /**
   * Runs `fn` if the breaker lets it through, then counts how it ended. Rejects with
   * `CircuitOpenError`, without calling `fn`, when the breaker is not letting calls through.
   */
  execute<T>(fn: () => Promise<T>, options?: BreakerCallOptions): Promise<T> {
    // Promise callbacks rather than an async function: this stays alive while the call runs,
    // and a suspended async function holds more memory per call in flight.
    const confirming = this.shared?.confirmation;
    if (confirming !== undefined && this.state === 'closed') {
      // A shared window is still confirming a failure: decide once the others' counts are in.
      const again = (): Promise<T> => this.execute(fn, options);
      return Promise.resolve(confirming).then(again, again);
    }
    const rejection = this.refusals.now(this.disposed);
    if (rejection !== undefined) return Promise.reject(rejection);
    const epoch = this.machine.epoch;
    if (this.state !== 'half_open') return this.run(fn, epoch, options);
    this.trials.admit();
    // A shared window's trial slot is taken only while half-open: never on the closed path.
    if (this.shared === undefined) return this.run(fn, epoch, options);
    return this.sharedTrial(this.shared, epoch).then(() => this.run(fn, epoch, options));
  }

  /**
   * Opens a closed breaker when its counts, with the shared window's, call for it: a store
   * that shares the window calls this when other instances' counts arrive.
   */
  reconsider(): void {
    if (this.state === 'closed' && !this.disposed && this.shouldOpen()) this.transition('open');
  }

  /** Opens the breaker now; trial calls are let through after `resetTimeoutMs`. No effect while isolated. */
  open(): void {
    if (this.state !== 'isolated') this.transition('open');
  }

  /** Closes the breaker with a fresh window, also ending an isolation. */
  close(): void {
    this.transition('closed');
  }

  /** Holds the breaker open, with no reset, until `close()`. */
  isolate(): void {
    this.transition('isolated');
  }

  /** The state as plain JSON (see {@link CircuitBreakerStore}). */
  snapshot(): CircuitBreakerSnapshot {
    const savedAt = this.clock.now();
    const state = this.state;
    switch (state) {
      case 'closed':
        return { state, window: this.stats(), savedAt };
      case 'open':
      case 'half_open':
        return { state, openedAt: this.machine.openedAt, savedAt };
      case 'isolated':
        return { state, savedAt };
    }
  }

  /**
   * Takes over a snapshot's state. A closed snapshot's counts go into the newest bucket; an
   * open or half-open one is restored as open since `openedAt` and half-opens, with fresh
   * trial slots, at `openedAt + resetTimeoutMs` (at once, when that time has passed).
   */
  hydrate(snapshot: CircuitBreakerSnapshot): void {
    switch (snapshot.state) {
      case 'closed':
        this.transition('closed', snapshot.window);
        return;
      case 'open':
      case 'half_open': {
        const openedAt = snapshot.openedAt ?? this.clock.now();
        this.transition('open', undefined, openedAt);
        if (this.clock.now() - openedAt >= this.options.resetTimeoutMs)
          this.transition('half_open');
        return;
      }
      case 'isolated':
        this.transition('isolated');
    }
  }

  /** Stops the breaker: cancels its timer and shuts its window down. Later calls fail fast. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.machine.stop();
    this.trials.dropHeld();
    this.window.shutdown();
  }

  /**
   * The `CircuitOpenError` a call would fail with now, or undefined when it would be let
   * through; lets nothing through and takes no trial slot. A host can fail a call fast with
   * it before doing any of the call's other work. The same error object stands for every
   * refusal of one open (or half-open, or isolated) period, its `retryAfterMs` read from the
   * clock each time: building an `Error` is most of what a refusal costs. Calls that go
   * through {@link ToolCircuitBreaker.execute} get an error of their own.
   */
  rejection(): CircuitOpenError | undefined {
    return this.refusals.ofPeriod(this.disposed);
  }

  private run<T>(fn: () => Promise<T>, epoch: number, options?: BreakerCallOptions): Promise<T> {
    // Without a slow-call threshold nothing reads the duration: skip the two clock reads.
    const start = this.timed ? this.clock.now() : 0;
    let running: Promise<T>;
    try {
      running = fn();
    } catch (error) {
      running = Promise.reject(error);
    }
    const succeeded = this.timed
      ? (value: T) => {
          const durationMs = this.clock.now() - start;
          this.record(epoch, durationMs >= this.options.slowCallDurationMs, durationMs);
          return value;
        }
      : (this.successCounter(epoch) as (value: T) => T);
    return running.then(succeeded, (error: unknown) => {
      const abandoned = options?.abandoned;
      if (abandoned !== undefined) this.holdTrial(epoch, abandoned);
      else if (this.options.isNeutral(error)) this.releaseTrial(epoch);
      else {
        const durationMs = this.timed ? this.clock.now() - start : 0;
        if (options?.deferFailure !== undefined && this.state === 'closed') {
          options.deferFailure(() => this.record(epoch, true, durationMs));
        } else this.record(epoch, true, durationMs);
      }
      throw error;
    });
  }

  /**
   * Counts a success of period `epoch` and passes the value on: one function per period,
   * shared by its calls, where the slow-call threshold needs no clock read.
   */
  private successCounter(epoch: number): (value: unknown) => unknown {
    if (this.countsSuccessOf?.epoch !== epoch) {
      this.countsSuccessOf = {
        epoch,
        count: (value) => {
          this.record(epoch, false, 0);
          return value;
        },
      };
    }
    return this.countsSuccessOf.count;
  }

  /** Takes the shared trial slot too, after the local one (half-open only). */
  private async sharedTrial(shared: SharedWindowDecorator, epoch: number): Promise<void> {
    if (await shared.acquireTrial()) return;
    if (epoch === this.machine.epoch && this.state === 'half_open') this.trials.giveBack();
    throw this.refusals.trialsTaken();
  }

  private record(epoch: number, failed: boolean, durationMs: number): void {
    if (epoch !== this.machine.epoch) return;
    if (this.state === 'half_open') {
      if (failed) this.transition('open');
      else this.trialSucceeded(epoch);
      return;
    }
    this.window.count(failed, durationMs);
    this.shared?.count(failed);
    if (failed && this.shouldOpen()) this.transition('open');
  }

  /**
   * A trial succeeded: the shared window decides when it can (the trials of every instance
   * count together, and it applies the closing); otherwise this breaker counts it.
   */
  private trialSucceeded(epoch: number): void {
    const shared = this.shared?.trialSucceeded();
    if (shared === undefined) {
      this.countTrialSuccess();
      return;
    }
    void Promise.resolve(shared).then((taken) => {
      if (!taken && epoch === this.machine.epoch) this.countTrialSuccess();
    });
  }

  private countTrialSuccess(): void {
    if (this.state === 'half_open' && this.trials.succeed()) this.transition('closed');
  }

  private releaseTrial(epoch: number): void {
    if (epoch !== this.machine.epoch || this.state !== 'half_open') return;
    this.trials.giveBack();
    this.shared?.releaseTrial();
  }

  /** Keeps a half-open trial's slot until its abandoned attempt settles or passes its deadline. */
  private holdTrial(epoch: number, abandoned: AbandonedAttempt): void {
    if (epoch !== this.machine.epoch || this.state !== 'half_open') return;
    this.trials.hold(abandoned, () => this.releaseTrial(epoch));
  }

  /** Whether the opening rule opens the breaker on its counts (with the shared window's). */
  private shouldOpen(): boolean {
    const local = this.window.counts();
    const counts = this.shared === undefined ? local : this.shared.withRemote(local);
    return this.options.openingRule.shouldOpen(counts, this.options);
  }

  private transition(
    to: CircuitState,
    initial?: CircuitBreakerStats,
    openedAt = this.clock.now(),
  ): void {
    if (this.disposed) return;
    const from = this.state;
    this.trials.reset();
    this.machine.enter(to, openedAt);
    if (to === 'closed') this.window.restart(initial);
    if (from === to) return;
    this.onStateChange?.({
      type: 'breaker.state_changed',
      at: this.clock.now(),
      tool: this.tool,
      key: this.key,
      from,
      to,
    });
  }
}
