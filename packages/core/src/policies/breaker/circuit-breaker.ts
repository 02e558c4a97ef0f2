import type { CancelTimer, Clock } from '../../clock/clock.js';
import { systemClock } from '../../clock/system-clock.js';
import { CircuitOpenError } from '../../errors/circuit-open.error.js';
import type { BreakerStateChangedEvent, CircuitState } from '../../events/tool-event.js';
import type { AbandonedAttempt } from '../timeout.js';
import { BucketRotation } from './bucket-rotation.js';
import {
  resolveCircuitBreakerOptions,
  type CircuitBreakerOptions,
  type ResolvedCircuitBreakerOptions,
} from './circuit-breaker-options.js';
import type { CircuitBreakerSnapshot } from './circuit-breaker-store.js';
import { openRollingWindow, type RollingWindow } from './opossum-window.js';
import type { SharedBreakerWindow } from './shared-breaker-window.js';

/** @publicApi */
export interface CircuitBreakerDeps {
  /** Default: the shared `SystemClock`. */
  readonly clock?: Clock;
  /** The breaker's key (default: `tool`). */
  readonly key?: string;
  /** The tool the breaker protects, for errors and events. */
  readonly tool: string;
  /** A rotation shared with other breakers of the same window (the registry passes one). */
  readonly rotation?: BucketRotation;
  /** Told about every state change. */
  readonly onStateChange?: (event: BreakerStateChangedEvent) => void;
  /** Counts and trial slots shared with other instances (default: this breaker decides alone). */
  readonly shared?: SharedBreakerWindow;
}

/** Per-call options of {@link ToolCircuitBreaker.execute}. @publicApi */
export interface BreakerCallOptions {
  /**
   * Read when the call rejects: the attempt its caller's abort left running, if that is how it
   * ended (set it from `withTimeout`'s `onAbandoned`). Such a call counts neither as success
   * nor as failure, whatever its error, and a half-open trial slot stays taken until that
   * attempt has settled or passed its deadline.
   */
  readonly abandoned?: AbandonedAttempt;
  /**
   * Count calls, not attempts: when given, a failure while closed is not counted at once but
   * handed to this function as `count`, for the caller to run when the whole call has failed
   * (after its retries) and to drop when a retry succeeded. `composePolicies` and the retry
   * layer of `@toolshield/nest` do this, so a flaky upstream whose retries succeed never
   * opens the breaker. It is called as a method of these options.
   */
  readonly deferFailure?: (count: () => void) => void;
}

/** The states in which a breaker may refuse calls. */
type RefusingState = Exclude<CircuitState, 'closed'>;

/** What a refused call is told, by the state that refused it. */
const REFUSAL_MESSAGES: Readonly<Record<RefusingState, string>> = {
  open: 'The circuit breaker is open after repeated failures',
  isolated: 'The circuit breaker is isolated until it is closed by hand',
  half_open: 'The circuit breaker is half-open and its trial calls are running',
};

/** A window's counts, current as of one rotation generation. */
interface WindowTally {
  successes: number;
  failures: number;
  readonly generation: number;
}

/** The rolling window's counts. @publicApi */
export interface CircuitBreakerStats {
  readonly successes: number;
  readonly failures: number;
}

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
 * How opossum is used: opossum supplies the rolling window, its `Status` (made with
 * `CircuitBreaker.newStatus`), and the decisions are ours, from that window's counts. Each
 * call runs outside opossum, timed on our clock, and is then counted in the window the way
 * an opossum breaker counts a call it fired (`fires`, plus `successes` or `failures` with
 * the latency). Opossum's own state machine is not used: its transitions run on real
 * `setTimeout`s (the reset timer, started on every `open`) and it allows a single half-open
 * probe (opossum #613); firing through it also costs about a microsecond a call, most of
 * this breaker's overhead in the first version. So every time-dependent step runs on the
 * injected clock:
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
 * `dispose()` cancels the timer and shuts the window down, which removes its rotation
 * listener: nothing is left running.
 *
 * @publicApi
 */
export class ToolCircuitBreaker {
  readonly key: string;
  readonly tool: string;
  readonly options: ResolvedCircuitBreakerOptions;
  private readonly clock: Clock;
  private readonly rotation: BucketRotation;
  private readonly onStateChange?: (event: BreakerStateChangedEvent) => void;
  /** Whether calls are timed (only a slow-call threshold reads their duration). */
  private readonly timed: boolean;
  private readonly shared?: SharedBreakerWindow;
  /** The shared window's confirmation of this instance's latest failure, while it runs. */
  private confirming: PromiseLike<void> | undefined;
  /** Consecutive failures counted while closed (0 after a success or a new window). */
  private failureRun = 0;
  private window: RollingWindow;
  private current: CircuitState = 'closed';
  /** Bumped on every transition: outcomes of calls admitted in an earlier period are not counted. */
  private epoch = 0;
  private openedAt = 0;
  private cancelHalfOpen?: () => void;
  private trialsAdmitted = 0;
  private trialsSucceeded = 0;
  /** Trial slots held for abandoned attempts, each with its deadline timer. */
  private readonly heldTrials = new Set<{ cancel?: CancelTimer }>();
  private disposed = false;
  private metadataOf: Readonly<{ breakerKey: string; state: CircuitState }> | undefined;
  /** The window's counts as of a rotation generation (see `counts`). */
  private tally: WindowTally | undefined;
  /** The error {@link ToolCircuitBreaker.rejection} gives for the refusals of one period. */
  private refusal: { epoch: number; error: CircuitOpenError } | undefined;
  /** The success counter of the latest period (see `successCounter`). */
  private countsSuccessOf: { epoch: number; count: (value: unknown) => unknown } | undefined;

  constructor(options: CircuitBreakerOptions, deps: CircuitBreakerDeps) {
    this.options = resolveCircuitBreakerOptions(options);
    this.timed = this.options.slowCallDurationMs !== Number.POSITIVE_INFINITY;
    this.clock = deps.clock ?? systemClock;
    this.tool = deps.tool;
    this.key = deps.key ?? deps.tool;
    this.onStateChange = deps.onStateChange;
    this.shared = deps.shared;
    this.rotation =
      deps.rotation ??
      new BucketRotation(this.clock, this.options.rollingWindowMs, this.options.rollingBuckets);
    this.window = this.createWindow();
  }

  /** The current state. */
  get state(): CircuitState {
    return this.current;
  }

  /** The counts in the rolling window now. */
  stats(): CircuitBreakerStats {
    const { successes, failures } = this.counts();
    return { successes, failures };
  }

  /**
   * The window's counts, read from opossum only when its buckets have rotated since the last
   * read (its `stats` sums every field of every bucket): between rotations this breaker's own
   * increments keep them current, so a failure's opening decision costs no sum.
   */
  private counts(): WindowTally {
    this.rotation.catchUp();
    const generation = this.rotation.generation;
    if (this.tally?.generation !== generation) {
      const { successes, failures } = this.window.stats;
      this.tally = { successes, failures, generation };
    }
    return this.tally;
  }

  /**
   * Runs `fn` if the breaker lets it through, then counts how it ended. Rejects with
   * `CircuitOpenError`, without calling `fn`, when the breaker is not letting calls through.
   */
  execute<T>(fn: () => Promise<T>, options?: BreakerCallOptions): Promise<T> {
    // Promise callbacks rather than an async function: this stays alive while the call runs,
    // and a suspended async function holds more memory per call in flight.
    if (this.confirming !== undefined && this.current === 'closed') {
      // A shared window is still confirming a failure: decide once the others' counts are in.
      const again = (): Promise<T> => this.execute(fn, options);
      return Promise.resolve(this.confirming).then(again, again);
    }
    let epoch: number;
    try {
      epoch = this.admit();
    } catch (error) {
      return Promise.reject(error);
    }
    // A shared window's trial slot is taken only while half-open: never on the closed path.
    if (this.shared !== undefined && this.current === 'half_open') {
      return this.sharedTrial(epoch).then(() => this.run(fn, epoch, options));
    }
    return this.run(fn, epoch, options);
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
        if (options?.deferFailure !== undefined && this.current === 'closed') {
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

  /**
   * Opens a closed breaker when its counts, with the shared window's, call for it: a store
   * that shares the window calls this when other instances' counts arrive.
   */
  reconsider(): void {
    if (this.current === 'closed' && !this.disposed && this.thresholdExceeded())
      this.transition('open');
  }

  /** Opens the breaker now; trial calls are let through after `resetTimeoutMs`. No effect while isolated. */
  open(): void {
    if (this.current !== 'isolated') this.transition('open');
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
    switch (this.current) {
      case 'closed':
        return { state: 'closed', window: this.stats(), savedAt };
      case 'open':
      case 'half_open':
        return { state: this.current, openedAt: this.openedAt, savedAt };
      case 'isolated':
        return { state: 'isolated', savedAt };
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
    this.cancelHalfOpen?.();
    this.cancelHalfOpen = undefined;
    this.dropHeldTrials();
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
    if (this.disposed || !this.refuses()) return this.refusalError();
    if (this.refusal?.epoch !== this.epoch) {
      const error = this.refusalError() as CircuitOpenError;
      if (this.current === 'open') {
        Object.defineProperty(error, 'retryAfterMs', {
          get: () => this.untilHalfOpen(),
          enumerable: true,
        });
      }
      this.refusal = { epoch: this.epoch, error };
    }
    return this.refusal.error;
  }

  /** Whether calls are refused now (disposed aside). */
  private refuses(): boolean {
    return (
      this.current !== 'closed' &&
      (this.current !== 'half_open' || this.trialsAdmitted >= this.options.halfOpenMaxCalls)
    );
  }

  private untilHalfOpen(): number {
    return Math.max(0, this.openedAt + this.options.resetTimeoutMs - this.clock.now());
  }

  /** A new error for a call refused now, or undefined when calls go through. */
  private refusalError(): CircuitOpenError | undefined {
    if (this.disposed) return this.openError('The circuit breaker was shut down', undefined);
    if (!this.refuses()) return undefined;
    const state = this.current as RefusingState;
    return this.openError(
      REFUSAL_MESSAGES[state],
      state === 'open' ? this.untilHalfOpen() : undefined,
    );
  }

  /** Lets a call through or throws `CircuitOpenError`; returns the period the call belongs to. */
  private admit(): number {
    const rejection = this.refusalError();
    if (rejection) throw rejection;
    if (this.current === 'half_open') this.trialsAdmitted++;
    return this.epoch;
  }

  /** Takes the shared trial slot too (half-open only, so never on the closed-state path). */
  private async sharedTrial(epoch: number): Promise<void> {
    if (await this.shared?.acquireTrial(this.key, this.options.halfOpenMaxCalls)) return;
    if (epoch === this.epoch && this.current === 'half_open') this.trialsAdmitted--;
    throw this.openError(
      'The circuit breaker is half-open and its trial calls are running',
      undefined,
    );
  }

  private record(epoch: number, failed: boolean, durationMs: number): void {
    if (epoch !== this.epoch) return;
    if (this.current === 'half_open') {
      if (failed) this.transition('open');
      else this.trialSucceeded(epoch);
      return;
    }
    const tally = this.counts();
    this.window.increment('fires');
    this.window.increment(failed ? 'failures' : 'successes', durationMs);
    if (failed) tally.failures++;
    else tally.successes++;
    this.failureRun = failed ? this.failureRun + 1 : 0;
    const confirming = this.shared?.count(this.key, failed);
    if (confirming !== undefined) this.holdUntil(confirming);
    if (failed && this.thresholdExceeded()) this.transition('open');
  }

  /**
   * A trial succeeded: the shared window decides when it can (the trials of every instance
   * count together, and it applies the closing); otherwise this breaker counts it.
   */
  private trialSucceeded(epoch: number): void {
    const shared = this.shared?.trialSucceeded?.(this.key, this.options.halfOpenMaxCalls);
    if (shared === undefined) {
      this.countTrialSuccess();
      return;
    }
    void Promise.resolve(shared).then((taken) => {
      if (!taken && epoch === this.epoch) this.countTrialSuccess();
    });
  }

  private countTrialSuccess(): void {
    if (this.current === 'half_open' && ++this.trialsSucceeded >= this.options.halfOpenMaxCalls)
      this.transition('closed');
  }

  /** Holds the calls asked of this closed breaker until the shared window confirmed a failure. */
  private holdUntil(confirming: PromiseLike<void>): void {
    this.confirming = confirming;
    const done = (): void => {
      if (this.confirming === confirming) this.confirming = undefined;
    };
    void Promise.resolve(confirming).then(done, done);
  }

  private releaseTrial(epoch: number): void {
    if (epoch !== this.epoch || this.current !== 'half_open') return;
    this.trialsAdmitted--;
    this.shared?.releaseTrial(this.key);
  }

  /** Keeps a half-open trial's slot until its abandoned attempt settles or passes its deadline. */
  private holdTrial(epoch: number, { settled, deadline }: AbandonedAttempt): void {
    if (epoch !== this.epoch || this.current !== 'half_open') return;
    const hold: { cancel?: CancelTimer } = {};
    const release = (): void => {
      if (!this.heldTrials.delete(hold)) return;
      hold.cancel?.();
      this.releaseTrial(epoch);
    };
    this.heldTrials.add(hold);
    if (deadline !== undefined)
      hold.cancel = this.clock.setTimer(release, deadline - this.clock.now());
    void settled.then(release);
  }

  private dropHeldTrials(): void {
    for (const hold of this.heldTrials) hold.cancel?.();
    this.heldTrials.clear();
  }

  private thresholdExceeded(): boolean {
    const local = this.counts();
    const remote = this.shared?.remote(this.key);
    const counts = {
      successes: local.successes + (remote?.successes ?? 0),
      failures: local.failures + (remote?.failures ?? 0),
      run: this.failureRun,
    };
    return this.options.openingRule.shouldOpen(counts, this.options);
  }

  private transition(
    to: CircuitState,
    initial?: CircuitBreakerStats,
    openedAt = this.clock.now(),
  ): void {
    if (this.disposed) return;
    const from = this.current;
    this.cancelHalfOpen?.();
    this.cancelHalfOpen = undefined;
    this.dropHeldTrials();
    this.epoch++;
    this.current = to;
    this.trialsAdmitted = 0;
    this.trialsSucceeded = 0;
    if (to === 'open') {
      this.openedAt = openedAt;
      this.cancelHalfOpen = this.clock.setTimer(
        () => this.transition('half_open'),
        openedAt + this.options.resetTimeoutMs - this.clock.now(),
      );
    } else if (to === 'closed') {
      this.window.shutdown();
      this.window = this.createWindow(initial);
      this.tally = undefined;
      this.failureRun = 0;
    }
    if (from !== to) {
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

  private createWindow(initial?: CircuitBreakerStats): RollingWindow {
    return openRollingWindow({
      windowMs: this.options.rollingWindowMs,
      buckets: this.options.rollingBuckets,
      rotation: this.rotation.controller,
      ...(initial === undefined ? {} : { initial }),
    });
  }

  private openError(message: string, retryAfterMs: number | undefined): CircuitOpenError {
    return new CircuitOpenError(message, {
      captureStack: false,
      toolName: this.tool,
      retryAfterMs,
      metadata: this.stateMetadata(),
    });
  }

  /** The facts of a rejection, built once per state (frozen, so they are sanitised once too). */
  private stateMetadata(): Readonly<Record<string, unknown>> {
    if (this.metadataOf?.state !== this.current)
      this.metadataOf = Object.freeze({ breakerKey: this.key, state: this.current });
    return this.metadataOf;
  }
}
