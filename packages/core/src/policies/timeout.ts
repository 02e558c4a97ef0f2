import { ToolTimeoutError } from '../errors/timeout.error.js';
import { AbortSource } from '../clock/abort-source.js';
import type { CancelTimer, Clock } from '../clock/clock.js';
import { DeadlineList, joinDeadlineList, type DeadlineEntry } from '../clock/deadline-list.js';
import { SystemClock, systemClock } from '../clock/system-clock.js';
import { budgetExhaustedError, type CallBudget } from './call-budget.js';
import { cancellationError } from './cancellation.js';
import type { PolicyContext } from './retry.js';

/** Per-attempt time limit of a tool when neither it nor its module sets one (30 s). @publicApi */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/**
 * An attempt that its caller's abort ended while its body was still running.
 *
 * @publicApi
 */
export interface AbandonedAttempt {
  /** Settles (never rejects) when the body's own promise settles. */
  readonly settled: Promise<void>;
  /** Clock time (ms) at which the attempt would have timed out, when it had a limit. */
  readonly deadline?: number;
}

/** @publicApi */
export interface TimeoutOptions extends PolicyContext {
  /** The attempt's time limit; `undefined` or `Infinity` sets none (the caller can still abort). */
  readonly timeoutMs?: number;
  /**
   * The call's total budget: the attempt also ends when it runs out, with an error saying so.
   * An attempt started after it ran out fails at once without running.
   */
  readonly budget?: CallBudget;
  /** Put on the `ToolTimeoutError`. */
  readonly toolName?: string;
  /**
   * Told, just before the attempt rejects, when the caller's abort ends it while `fn` is still
   * running: a circuit breaker keeps a half-open trial slot taken until that body has settled.
   * Called as a method of these options, so a host passing one options object per call can
   * make it a method of its class rather than a closure.
   */
  readonly onAbandoned?: (attempt: AbandonedAttempt) => void;
}

const ignore = (): void => undefined;

/**
 * Runs one attempt with a deadline and real cancellation. The deadline is the earlier of
 * `timeoutMs` from now and the end of `budget`. `fn` receives the attempt's signal, which
 * aborts when the deadline passes (reason: `ToolTimeoutError`, saying whether the budget or the
 * attempt's limit ran out) or when the caller's `signal` aborts (reason: `CancelledError`, or
 * the caller's reason if it is a `ToolError`); the returned promise rejects with that reason at
 * the same moment, even if `fn` never settles.
 *
 * Whether a result is late is read from the clock when it arrives, not from which timer runs
 * first: a result or error arriving after the deadline (a busy event loop can delay the timer
 * past it) is discarded, and the attempt ends in the timeout error. The timer and the listener
 * on the caller's signal are removed as soon as the attempt settles either way.
 *
 * @example
 * const body = await withTimeout((signal) => fetch(url, { signal }).then((r) => r.text()), {
 *   timeoutMs: 5_000,
 *   signal: call.signal,
 *   clock,
 * });
 * @publicApi
 */
export function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  options: TimeoutOptions,
): Promise<T> {
  return withAttemptTimeout((attempt) => fn(attempt.signal), options);
}

/**
 * {@link withTimeout} for hosts that run many attempts: `fn` receives the attempt itself, an
 * {@link AbortSource}, whose real `AbortSignal` (`attempt.signal`) is made only if read. Inner
 * policies can listen to the attempt directly.
 *
 * @publicApi
 */
export function withAttemptTimeout<T>(
  fn: (attempt: AbortSource) => Promise<T>,
  options: TimeoutOptions,
): Promise<T> {
  const { timeoutMs, budget, signal, clock = systemClock } = options;
  if (signal?.aborted) return Promise.reject(cancellationError(signal.reason));
  const now = clock.now();
  const own =
    timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY
      ? Number.POSITIVE_INFINITY
      : now + timeoutMs;
  const byBudget = budget !== undefined && budget.endsAt <= own;
  if (byBudget && budget.endsAt <= now)
    return Promise.reject(budgetExhaustedError(budget, options.toolName));
  return new Promise<T>((resolve, reject) => {
    new TimedAttempt(resolve, reject, options, byBudget ? budget.endsAt : own, byBudget).run(
      fn,
      now,
    );
  });
}

/**
 * One attempt of {@link withTimeout}, as one object rather than a closure per event: it is
 * alive for as long as the attempt runs, so its size is paid per call in flight. On the
 * system clock, an attempt limited by its own `timeoutMs` waits in the {@link DeadlineList}
 * of that delay, one timer for all of them; other deadlines (the budget's, a virtual clock's,
 * whose timers' order tests rely on) get a timer each.
 */
class TimedAttempt<T> extends AbortSource implements DeadlineEntry {
  private settled = false;
  /** What ends the attempt at its deadline: a deadline list it waits in, or a timer of its own. */
  private timer: DeadlineList | CancelTimer | undefined;
  previousEntry: DeadlineEntry | undefined = undefined;
  nextEntry: DeadlineEntry | undefined = undefined;
  private body: Promise<T> | undefined;
  private readonly budget: CallBudget | undefined;

  constructor(
    private readonly resolve: (value: T) => void,
    private readonly reject: (reason: unknown) => void,
    /** Kept rather than copied field by field: a host may pass one object per call anyway. */
    private readonly options: TimeoutOptions,
    readonly deadline: number,
    byBudget: boolean,
  ) {
    super();
    this.budget = byBudget ? options.budget : undefined;
  }

  run(fn: (attempt: AbortSource) => Promise<T>, now: number): void {
    if (this.deadline !== Number.POSITIVE_INFINITY) {
      const delay = this.deadline - now;
      const clock = this.clock;
      if (this.budget === undefined && clock instanceof SystemClock)
        this.timer = joinDeadlineList(clock, delay, this);
      this.timer ??= clock.setTimer(() => this.expire(), delay);
    }
    // Not `once`: Node wraps such a listener in one more closure; finish() removes it anyway.
    this.options.signal?.addEventListener('abort', this);
    let body: Promise<T>;
    try {
      body = Promise.resolve(fn(this));
    } catch (error) {
      body = Promise.reject(error);
    }
    this.body = body;
    body.then(
      (value) => this.arrive(value, false),
      (error: unknown) => this.arrive(error, true),
    );
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  /** The deadline passed. */
  expire(): void {
    this.end(this.expired());
  }

  /** The caller aborted (this attempt listens to the caller's signal). */
  handleEvent(): void {
    if (this.settled) return;
    this.options.onAbandoned?.({
      // `body` is unset while `fn` runs synchronously: wait a tick for it.
      settled: Promise.resolve()
        .then(() => this.body)
        .then(ignore, ignore),
      deadline: this.deadline === Number.POSITIVE_INFINITY ? undefined : this.deadline,
    });
    this.end(cancellationError(this.options.signal?.reason));
  }

  /** The body settled: its outcome stands unless the deadline has passed by the clock. */
  private arrive(outcome: unknown, failed: boolean): void {
    if (this.settled) return;
    if (this.deadline !== Number.POSITIVE_INFINITY && this.clock.now() > this.deadline) {
      this.end(this.expired());
      return;
    }
    this.finish();
    if (failed) this.reject(outcome);
    else this.resolve(outcome as T);
  }

  /** Ends the attempt early: aborts its signal and rejects with `reason`. */
  private end(reason: unknown): void {
    if (this.settled) return;
    this.finish();
    this.abort(reason);
    this.reject(reason);
  }

  private finish(): void {
    this.settled = true;
    const timer = this.timer;
    if (timer instanceof DeadlineList) timer.remove(this);
    else timer?.();
    this.options.signal?.removeEventListener('abort', this);
  }

  private expired(): ToolTimeoutError {
    return this.budget
      ? budgetExhaustedError(this.budget, this.options.toolName)
      : new ToolTimeoutError(`Timed out after ${this.options.timeoutMs} ms`, {
          toolName: this.options.toolName,
          captureStack: false,
          metadata: { timeoutMs: this.options.timeoutMs },
        });
  }
}
