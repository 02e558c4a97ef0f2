import { type ToolOutcome } from '@toolshield/core';
import { isTerminalToolEvent } from '@toolshield/core/events';
import type { RecordedCall, RecordedRun } from './recorded-run.js';

/**
 * The invariants that every chaos scenario checks.
 *
 * @publicApi
 */
export type InvariantName =
  | 'executor_never_threw'
  | 'exactly_one_result'
  | 'attempts_within_retry_max'
  | 'retry_after_honoured'
  | 'open_breaker_fails_fast'
  | 'nothing_left_running';

/**
 * One broken invariant.
 *
 * @publicApi
 */
export interface InvariantViolation {
  readonly invariant: InvariantName;
  readonly message: string;
  /** The call it concerns, when it concerns one. */
  readonly callId?: string;
}

/** A pure check of one invariant over a recorded run. @publicApi */
export type InvariantChecker = (run: RecordedRun) => InvariantViolation[];

/** The executor never threw or rejected: every call ended in a resolved payload. @publicApi */
export const checkExecutorNeverThrew: InvariantChecker = (run) =>
  perCall(run, (call) =>
    call.rejections.map((rejection) =>
      violation(
        'executor_never_threw',
        call,
        `the executor rejected with ${describeValue(rejection)}`,
      ),
    ),
  );

/**
 * Every call got exactly one result: one resolved payload and, when events were recorded,
 * one terminal event.
 *
 * @publicApi
 */
export const checkExactlyOneResult: InvariantChecker = (run) => {
  const terminals = new Map<string, number>();
  for (const event of run.events ?? []) {
    if (isTerminalToolEvent(event))
      terminals.set(event.callId, (terminals.get(event.callId) ?? 0) + 1);
  }
  return perCall(run, (call) => {
    const found: InvariantViolation[] = [];
    if (call.outcomes.length !== 1) {
      found.push(
        violation('exactly_one_result', call, `got ${call.outcomes.length} results, expected 1`),
      );
    }
    const terminal = terminals.get(call.callId) ?? 0;
    if (run.events !== undefined && terminal !== 1) {
      found.push(
        violation('exactly_one_result', call, `emitted ${terminal} terminal events, expected 1`),
      );
    }
    return found;
  });
};

/** No call made more than `retryMax + 1` attempts. @publicApi */
export const checkAttemptsWithinRetryMax: InvariantChecker = (run) =>
  perCall(run, (call) => {
    const retryMax = call.retryMax ?? failureOf(call.outcomes)?.retryMax;
    if (retryMax === undefined) return [];
    const attempts = Math.max(
      call.attempts.length,
      ...call.outcomes.map((outcome) => outcome.metadata.attempts),
    );
    return attempts > retryMax + 1
      ? [
          violation(
            'attempts_within_retry_max',
            call,
            `made ${attempts} attempts, retryMax ${retryMax} allows ${retryMax + 1}`,
          ),
        ]
      : [];
  });

/**
 * Retry-After was honoured: no attempt started before the previous attempt's failure time
 * plus the `retryAfterMs` that failure asked for.
 *
 * @publicApi
 */
export const checkRetryAfterHonoured: InvariantChecker = (run) =>
  perCall(run, (call) =>
    call.attempts.slice(1).flatMap((attempt, index) => {
      const previous = call.attempts[index];
      if (previous?.failedAt === undefined || previous.retryAfterMs === undefined) return [];
      const earliest = previous.failedAt + previous.retryAfterMs;
      return attempt.startedAt < earliest
        ? [
            violation(
              'retry_after_honoured',
              call,
              `attempt ${attempt.attempt} started at ${attempt.startedAt}, ${earliest - attempt.startedAt} ms before ` +
                `the ${previous.retryAfterMs} ms Retry-After of attempt ${previous.attempt} (failed at ${previous.failedAt}) ran out`,
            ),
          ]
        : [];
    }),
  );

/** An open breaker failed fast: no attempt that ended in `circuit_open` ran the tool. @publicApi */
export const checkOpenBreakerFailsFast: InvariantChecker = (run) =>
  perCall(run, (call) =>
    call.attempts
      .filter((attempt) => attempt.errorType === 'circuit_open' && attempt.toolInvoked)
      .map((attempt) =>
        violation(
          'open_breaker_fails_fast',
          call,
          `attempt ${attempt.attempt} failed circuit_open but ran the tool`,
        ),
      ),
  );

/** Nothing was left running after the app closed. @publicApi */
export const checkNothingLeftRunning: InvariantChecker = (run) =>
  run.openHandles === 0
    ? []
    : [
        {
          invariant: 'nothing_left_running',
          message: `${run.openHandles} timers or handles still open after close`,
        },
      ];

/**
 * Every checker, by invariant.
 *
 * @publicApi
 */
export const INVARIANT_CHECKERS: Readonly<Record<InvariantName, InvariantChecker>> = Object.freeze({
  executor_never_threw: checkExecutorNeverThrew,
  exactly_one_result: checkExactlyOneResult,
  attempts_within_retry_max: checkAttemptsWithinRetryMax,
  retry_after_honoured: checkRetryAfterHonoured,
  open_breaker_fails_fast: checkOpenBreakerFailsFast,
  nothing_left_running: checkNothingLeftRunning,
});

/**
 * Checks a recorded run against every invariant (or those in `only`) and returns the
 * violations, in invariant order then call order; empty means PASS.
 *
 * @publicApi
 */
export function checkInvariants(
  run: RecordedRun,
  only?: readonly InvariantName[],
): InvariantViolation[] {
  const names = only ?? (Object.keys(INVARIANT_CHECKERS) as InvariantName[]);
  return names.flatMap((name) => INVARIANT_CHECKERS[name](run));
}

function perCall(
  run: RecordedRun,
  check: (call: RecordedCall) => InvariantViolation[],
): InvariantViolation[] {
  return run.calls.flatMap(check);
}

function violation(
  invariant: InvariantName,
  call: RecordedCall,
  message: string,
): InvariantViolation {
  return { invariant, message: `${call.tool} ${call.callId}: ${message}`, callId: call.callId };
}

function failureOf(outcomes: readonly ToolOutcome[]) {
  return outcomes.find((outcome) => outcome.success === false);
}

function describeValue(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
