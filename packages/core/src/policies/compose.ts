import type { Clock } from '../clock/clock.js';
import { systemClock } from '../clock/system-clock.js';
import type { BreakerCallOptions, ToolCircuitBreaker } from './breaker/circuit-breaker.js';
import type { Bulkhead } from './bulkhead.js';
import { callBudget } from './call-budget.js';
import { retry } from './retry.js';
import { retryBudgetGate, type RetryBudgetGate } from './retry-budget/retry-budget.js';
import { LocalRetryBudgetStore, type RetryBudgetStore } from './retry-budget/retry-budget-store.js';
import { toRetryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js';
import { withTimeout, type AbandonedAttempt } from './timeout.js';

/**
 * The policies of one tool. Each is optional; present ones are applied in the order
 * Retry(CircuitBreaker(Timeout(Bulkhead(fn)))): every attempt passes the breaker (so an open
 * breaker stops the retries), which counts calls, not attempts (a retried attempt's failure
 * counts only if the call fails in the end, ADR 0015), the timeout covers queueing in the bulkhead and the run, and
 * the call's time budget (`retry.budgetMs`) covers everything: each attempt ends by the
 * earlier of its `timeoutMs` and the end of that budget (also without a `timeoutMs`). Retries
 * are also taken from the upstream's retry budget (`retry.retryBudget`, on by default). A
 * caller's abort during a half-open trial counts neither way in the breaker, whose trial slot
 * stays taken until the abandoned attempt has settled or passed its deadline.
 *
 * @publicApi
 */
export interface PolicySet {
  readonly retry?: RetryOptions | RetryPolicy;
  readonly breaker?: ToolCircuitBreaker;
  /** Per-attempt time limit in ms; each attempt also ends when the call's `budgetMs` runs out. */
  readonly timeoutMs?: number;
  readonly bulkhead?: Bulkhead;
  /** Default: the shared `SystemClock`. */
  readonly clock?: Clock;
  /** Put on the errors the policies create, and the retry budget's key unless it names one. */
  readonly toolName?: string;
  /**
   * Where the retry budget (`retry.retryBudget`, on by default) is counted. Pass one store to
   * the pipelines of tools that call the same upstream under the same budget key (or a shared
   * store such as `@toolshield/redis`'s). Default: a store of this pipeline's own.
   */
  readonly retryBudgetStore?: RetryBudgetStore;
}

/** What each attempt receives. @publicApi */
export interface AttemptContext {
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Aborts when the attempt times out or the caller aborts. */
  readonly signal: AbortSignal;
}

/** Attempt counts, to fill `ToolFailure.retryCount`/`retryMax` and result metadata truthfully. @publicApi */
export interface AttemptReport {
  /** Attempts made (fast-failed ones included); always `retryCount + 1` and at most `retryMax + 1`. */
  readonly attempts: number;
  /** Retries made after the first attempt. */
  readonly retryCount: number;
  /** Retries allowed after the first attempt (0 without a retry policy). */
  readonly retryMax: number;
  /** The retry budget withheld a retry the policy would have made: the call ended at once. */
  readonly retriesWithheld?: boolean;
}

/**
 * How a call through the policies ended. It never throws: failures come back as `ok: false`
 * with the final error, unclassified (run the classifier on it).
 *
 * @publicApi
 */
export type PolicyOutcome<T> =
  | (AttemptReport & { readonly ok: true; readonly value: T })
  | (AttemptReport & { readonly ok: false; readonly error: unknown });

/** A tool call wrapped in its policies. @publicApi */
export type PolicyPipeline = <T>(
  fn: (context: AttemptContext) => Promise<T>,
  signal?: AbortSignal,
) => Promise<PolicyOutcome<T>>;

/**
 * Binds a {@link PolicySet} once (the retry options are resolved here) and returns a function
 * that runs calls through it.
 *
 * @example
 * const run = composePolicies({ retry: { maxRetries: 2 }, breaker, timeoutMs: 5_000, clock });
 * const outcome = await run(({ signal }) => fetchWeather(city, signal), call.signal);
 * @publicApi
 */
export function composePolicies(policies: PolicySet): PolicyPipeline {
  const { breaker, timeoutMs, bulkhead, clock = systemClock, toolName } = policies;
  const retryPolicy = policies.retry === undefined ? undefined : toRetryPolicy(policies.retry);
  const retryMax = retryPolicy?.maxRetries ?? 0;
  const budget = budgetGateOf(policies, retryPolicy);

  return async <T>(fn: (context: AttemptContext) => Promise<T>, signal?: AbortSignal) => {
    let attempts = 0;
    let retriesWithheld = false;
    const onWithheld = () => (retriesWithheld = true);
    // Counted as one call by the breaker: a retried attempt's failure waits in
    // `pendingFailure` and is counted only if the call fails in the end (ADR 0015).
    let pendingFailure: (() => void) | undefined;
    const trial: Mutable<BreakerCallOptions> =
      retryPolicy === undefined ? {} : { deferFailure: (count) => (pendingFailure = count) };
    const deadline = callBudget(retryPolicy?.budgetMs, clock.now());
    const onAbandoned = (attempt: AbandonedAttempt) => (trial.abandoned = attempt);
    const limited = (attempt: number) => (attemptSignal: AbortSignal) =>
      bulkhead === undefined
        ? fn({ attempt, signal: attemptSignal })
        : bulkhead.execute(() => fn({ attempt, signal: attemptSignal }), attemptSignal);
    const timed = (attempt: number) => () =>
      timeoutMs === undefined && signal === undefined && deadline === undefined
        ? limited(attempt)(new AbortController().signal)
        : withTimeout(limited(attempt), {
            timeoutMs,
            budget: deadline,
            signal,
            clock,
            toolName,
            onAbandoned,
          });
    const guarded = (attempt: number): Promise<T> => {
      attempts = attempt;
      trial.abandoned = undefined;
      pendingFailure = undefined; // a new attempt: the last one's failure was retried
      return breaker === undefined ? timed(attempt)() : breaker.execute(timed(attempt), trial);
    };
    try {
      const value =
        retryPolicy === undefined
          ? await guarded(1)
          : await retry(guarded, retryPolicy, { clock, signal, budget, onWithheld });
      return { ok: true, value, attempts, retryCount: attempts - 1, retryMax };
    } catch (error) {
      pendingFailure?.();
      return {
        ok: false,
        error,
        attempts: Math.max(attempts, 1),
        retryCount: Math.max(attempts - 1, 0),
        retryMax,
        ...(retriesWithheld ? { retriesWithheld } : {}),
      };
    }
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The retry budget's gate of a pipeline whose retry policy has one on. */
function budgetGateOf(
  policies: PolicySet,
  retryPolicy: RetryPolicy | undefined,
): RetryBudgetGate | undefined {
  const settings = retryPolicy?.retryBudget;
  if (settings === undefined) return undefined;
  const key = settings.key ?? policies.breaker?.key ?? policies.toolName ?? 'tool';
  const store = policies.retryBudgetStore ?? new LocalRetryBudgetStore();
  return retryBudgetGate(key, settings, store, policies.clock ?? systemClock);
}

/**
 * Runs one call through {@link composePolicies}. Prefer `composePolicies` when the same
 * policies serve many calls.
 *
 * @publicApi
 */
export function executeWithPolicies<T>(
  fn: (context: AttemptContext) => Promise<T>,
  options: PolicySet & { readonly signal?: AbortSignal },
): Promise<PolicyOutcome<T>> {
  return composePolicies(options)(fn, options.signal);
}
