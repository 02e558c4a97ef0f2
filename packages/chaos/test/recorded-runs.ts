import type { ToolFailure, ToolResult } from '@toolshield/core';
import type { RecordedCall, RecordedRun } from '../src/harness/recorded-run.js';

export const okResult = (callId: string, attempts = 1): ToolResult => ({
  success: true,
  tool: 'search',
  callId,
  output: { hits: 1 },
  metadata: { attempts, durationMs: 10 },
});

export const failed = (
  callId: string,
  errorType: ToolFailure['errorType'],
  retryCount: number,
): ToolFailure => ({
  success: false,
  tool: 'search',
  callId,
  error: `The search failed (${errorType}).`,
  errorType,
  recoverable: true,
  retryCount,
  retryMax: 2,
  suggestions: [],
  metadata: { attempts: retryCount + 1, durationMs: 10 },
});

/** A run in which every invariant holds: a rate-limited call that waited, and an open breaker. */
export function healthyRun(): RecordedRun {
  const waited: RecordedCall = {
    callId: 'c1',
    tool: 'search',
    startedAt: 0,
    retryMax: 2,
    attempts: [
      {
        attempt: 1,
        startedAt: 0,
        toolInvoked: true,
        failedAt: 5,
        errorType: 'rate_limited',
        retryAfterMs: 30_000,
      },
      { attempt: 2, startedAt: 30_005, toolInvoked: true },
    ],
    outcomes: [okResult('c1', 2)],
    rejections: [],
  };
  const fastFail: RecordedCall = {
    callId: 'c2',
    tool: 'search',
    startedAt: 31_000,
    attempts: [
      {
        attempt: 1,
        startedAt: 31_000,
        toolInvoked: false,
        failedAt: 31_000,
        errorType: 'circuit_open',
      },
    ],
    outcomes: [failed('c2', 'circuit_open', 0)],
    rejections: [],
  };
  return {
    calls: [waited, fastFail],
    events: [
      { type: 'call.started', at: 0, callId: 'c1', tool: 'search' },
      {
        type: 'call.succeeded',
        at: 30_010,
        callId: 'c1',
        tool: 'search',
        result: okResult('c1', 2),
      },
      {
        type: 'breaker.state_changed',
        at: 30_500,
        tool: 'search',
        key: 'search',
        from: 'closed',
        to: 'open',
      },
      { type: 'call.started', at: 31_000, callId: 'c2', tool: 'search' },
      {
        type: 'call.failed',
        at: 31_000,
        callId: 'c2',
        tool: 'search',
        failure: failed('c2', 'circuit_open', 0),
      },
    ],
    openHandles: 0,
  };
}

/** A run that breaks every invariant once. */
export function brokenRun(): RecordedRun {
  const impatient: RecordedCall = {
    callId: 'b1',
    tool: 'search',
    startedAt: 0,
    retryMax: 1,
    attempts: [
      {
        attempt: 1,
        startedAt: 0,
        toolInvoked: true,
        failedAt: 10,
        errorType: 'rate_limited',
        retryAfterMs: 2_000,
      },
      { attempt: 2, startedAt: 500, toolInvoked: true, failedAt: 510, errorType: 'network' },
      {
        attempt: 3,
        startedAt: 3_000,
        toolInvoked: true,
        failedAt: 3_010,
        errorType: 'circuit_open',
      },
    ],
    outcomes: [failed('b1', 'circuit_open', 2), failed('b1', 'circuit_open', 2)],
    rejections: [],
  };
  const thrower: RecordedCall = {
    callId: 'b2',
    tool: 'search',
    startedAt: 4_000,
    attempts: [{ attempt: 1, startedAt: 4_000, toolInvoked: true }],
    outcomes: [],
    rejections: [new TypeError('Cannot read properties of undefined')],
  };
  return {
    calls: [impatient, thrower],
    events: [{ type: 'call.started', at: 0, callId: 'b1', tool: 'search' }],
    openHandles: 2,
  };
}
