import { describe, expect, it } from '@jest/globals';
import { brokenRun, failed, healthyRun, okResult } from '../../test/recorded-runs.js';
import type { RecordedRun } from './recorded-run.js';
import {
  checkAttemptsWithinRetryMax,
  checkExactlyOneResult,
  checkExecutorNeverThrew,
  checkInvariants,
  checkNothingLeftRunning,
  checkOpenBreakerFailsFast,
  checkRetryAfterHonoured,
} from './invariants.js';

describe('invariant checkers', () => {
  it('find nothing wrong with a healthy run', () => {
    expect(checkInvariants(healthyRun())).toEqual([]);
  });

  it('catch every broken invariant of a deliberately broken run', () => {
    const violations = checkInvariants(brokenRun());
    expect(violations.map((violation) => [violation.invariant, violation.callId])).toEqual([
      ['executor_never_threw', 'b2'],
      ['exactly_one_result', 'b1'],
      ['exactly_one_result', 'b1'],
      ['exactly_one_result', 'b2'],
      ['exactly_one_result', 'b2'],
      ['attempts_within_retry_max', 'b1'],
      ['retry_after_honoured', 'b1'],
      ['open_breaker_fails_fast', 'b1'],
      ['nothing_left_running', undefined],
    ]);
  });

  it('explain each violation in one line', () => {
    const run = brokenRun();
    expect(checkExecutorNeverThrew(run)[0]?.message).toBe(
      'search b2: the executor rejected with TypeError: Cannot read properties of undefined',
    );
    expect(checkExactlyOneResult(run).map((violation) => violation.message)).toEqual([
      'search b1: got 2 results, expected 1',
      'search b1: emitted 0 terminal events, expected 1',
      'search b2: got 0 results, expected 1',
      'search b2: emitted 0 terminal events, expected 1',
    ]);
    expect(checkAttemptsWithinRetryMax(run)[0]?.message).toBe(
      'search b1: made 3 attempts, retryMax 1 allows 2',
    );
    expect(checkRetryAfterHonoured(run)[0]?.message).toBe(
      'search b1: attempt 2 started at 500, 1510 ms before the 2000 ms Retry-After of attempt 1 (failed at 10) ran out',
    );
    expect(checkOpenBreakerFailsFast(run)[0]?.message).toBe(
      'search b1: attempt 3 failed circuit_open but ran the tool',
    );
    expect(checkNothingLeftRunning(run)[0]?.message).toBe(
      '2 timers or handles still open after close',
    );
  });

  it('accept a retry exactly when Retry-After runs out, and not one ms earlier', () => {
    const runWithRetryAt = (startedAt: number): RecordedRun => ({
      calls: [
        {
          callId: 'r1',
          tool: 'search',
          startedAt: 0,
          attempts: [
            {
              attempt: 1,
              startedAt: 0,
              toolInvoked: true,
              failedAt: 100,
              errorType: 'rate_limited',
              retryAfterMs: 1_000,
            },
            { attempt: 2, startedAt, toolInvoked: true },
          ],
          outcomes: [okResult('r1', 2)],
          rejections: [],
        },
      ],
      openHandles: 0,
    });
    expect(checkRetryAfterHonoured(runWithRetryAt(1_100))).toEqual([]);
    expect(checkRetryAfterHonoured(runWithRetryAt(1_099))).toHaveLength(1);
  });

  it("fall back on a failure's retryMax, and skip event checks without events", () => {
    const attempt = (number: number) => ({ attempt: number, startedAt: number, toolInvoked: true });
    const runWithAttempts = (count: number): RecordedRun => ({
      calls: [
        {
          callId: 'm1',
          tool: 'search',
          startedAt: 0,
          attempts: Array.from({ length: count }, (_, index) => attempt(index + 1)),
          outcomes: [failed('m1', 'network', count - 1)],
          rejections: [],
        },
      ],
      openHandles: 0,
    });
    expect(checkAttemptsWithinRetryMax(runWithAttempts(3))).toEqual([]); // retryMax 2 allows 3
    expect(checkAttemptsWithinRetryMax(runWithAttempts(4))).toHaveLength(1);
    expect(checkExactlyOneResult(runWithAttempts(3))).toEqual([]);
  });

  it('run only the invariants asked for', () => {
    expect(checkInvariants(brokenRun(), ['nothing_left_running'])).toHaveLength(1);
  });
});
