import { describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { RunIdempotencyKeys } from './idempotency-keys.js';
import type { RunEvent, RunEventData } from './run-event.js';

const PAY = { name: 'pay_invoice', arguments: '{"invoice":"INV-1","amount":5,"currency":"EUR"}' };

function events(...data: RunEventData[]): RunEvent[] {
  return data.map((entry, index) => ({ runId: 'run-1', seq: index + 1, at: index, data: entry }));
}
const requested = (callId: string, call = PAY, idempotencyKey?: string): RunEventData => ({
  type: 'tool.requested',
  callId,
  tool: call.name,
  arguments: call.arguments,
  ...(idempotencyKey ? { idempotencyKey } : {}),
});
const failed = (callId: string, errorType: string): RunEventData => ({
  type: 'call.failed',
  at: 0,
  callId,
  tool: PAY.name,
  failure: { errorType } as ToolFailure,
});
const succeeded = (callId: string): RunEventData => ({
  type: 'call.succeeded',
  at: 0,
  callId,
  tool: PAY.name,
  result: {} as ToolResult,
});

describe('RunIdempotencyKeys', () => {
  it('gives a call <run id>:<call id>', () => {
    expect(new RunIdempotencyKeys('run-1').keyFor({ ...PAY, id: 'call_2' })).toBe('run-1:call_2');
  });

  it('gives the repeat of a call that started and never finished its key, once', () => {
    const keys = new RunIdempotencyKeys('run-1', events(requested('call_1')));
    expect(keys.keyFor({ ...PAY, id: 'call_2' })).toBe('run-1:call_1');
    expect(keys.keyFor({ ...PAY, id: 'call_3' })).toBe('run-1:call_3');
  });

  it('carries the first key through a second interruption, and treats a cancelled call as interrupted', () => {
    const past = events(
      requested('call_1'),
      failed('call_1', 'cancelled'),
      requested('call_2', PAY, 'run-1:call_0'),
    );
    const keys = new RunIdempotencyKeys('run-1', past);
    expect(
      [keys.keyFor({ ...PAY, id: 'call_3' }), keys.keyFor({ ...PAY, id: 'call_4' })].sort(),
    ).toEqual(['run-1:call_0', 'run-1:call_1']);
  });

  it('carries nothing over from a call that finished, or for other arguments', () => {
    const keys = new RunIdempotencyKeys(
      'run-1',
      events(
        requested('call_1'),
        succeeded('call_1'),
        requested('call_2'),
        failed('call_2', 'upstream_unavailable'),
        requested('call_5'),
      ),
    );
    const other = {
      name: 'pay_invoice',
      arguments: '{"invoice":"INV-2","amount":5,"currency":"EUR"}',
    };
    expect(keys.keyFor({ ...other, id: 'call_6' })).toBe('run-1:call_6');
    expect(keys.keyFor({ ...PAY, id: 'call_7' })).toBe('run-1:call_5');
    expect(keys.keyFor({ ...PAY, id: 'call_8' })).toBe('run-1:call_8');
  });
});
