import { describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import { BREAKER_HISTORY_MS, ToolHealthTracker } from './tool-health.js';

const base = { callId: 'c', tool: 'search' };
const result = (durationMs: number) =>
  ({ success: true, tool: 'search', metadata: { durationMs } }) as unknown as ToolResult;
const failure = (errorType: string, durationMs: number) =>
  ({
    success: false,
    tool: 'search',
    errorType,
    metadata: { durationMs },
  }) as unknown as ToolFailure;

describe('ToolHealthTracker', () => {
  it('counts calls, success share, retries and failures by type, with nearest-rank p50 and p95', () => {
    const health = new ToolHealthTracker();
    const events: ToolEvent[] = [];
    for (let index = 1; index <= 20; index += 1) {
      events.push({ ...base, type: 'call.started', at: index });
      events.push(
        index % 10 === 0
          ? { ...base, type: 'call.failed', at: index, failure: failure('timeout', index * 10) }
          : { ...base, type: 'call.succeeded', at: index, result: result(index * 10) },
      );
    }
    events.push({
      ...base,
      type: 'retry.scheduled',
      at: 30,
      attempt: 2,
      delayMs: 100,
      errorType: 'network',
    });
    for (const event of events) health.record(event);
    expect(health.report(100)).toEqual([
      {
        tool: 'search',
        calls: 20,
        succeeded: 18,
        successShare: 0.9,
        p50Ms: 100,
        p95Ms: 190,
        retries: 1,
        failures: { timeout: 2 },
        breakerChanges: [],
      },
    ]);
  });

  it('keeps the breaker changes of the last minutes and the current rate of the tool limiter', () => {
    const health = new ToolHealthTracker();
    const change = (at: number, from: 'closed' | 'open', to: 'closed' | 'open') =>
      health.record({ type: 'breaker.state_changed', at, tool: 'search', key: 'search', from, to });
    change(1_000, 'closed', 'open');
    change(2_000, 'open', 'closed');
    change(BREAKER_HISTORY_MS + 1_000, 'closed', 'open');
    health.record({ ...base, type: 'rate_limit.waiting', at: 1, key: 'api', waitMs: 50 });
    health.record({ type: 'rate_limit.changed', at: 2, key: 'api', rate: 2.5, reason: 'x' });
    const [report] = health.report(BREAKER_HISTORY_MS + 1_500);
    expect(report?.breakerChanges.map((c) => c.at)).toEqual([2_000, BREAKER_HISTORY_MS + 1_000]);
    expect(report?.rate).toBe(2.5);
    expect(report?.successShare).toBeNull();
    expect(report?.p95Ms).toBeNull();
  });
});
