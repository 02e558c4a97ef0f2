import { describe, expect, it } from '@jest/globals';
import { failed, succeeded } from '../fixtures.test.js';
import { canonicalJson, toolCallFingerprint } from './canonical-json.js';
import { LoopGuard } from './loop-guard.js';

describe('canonicalJson', () => {
  it('ignores key order at every depth, keeps array order, passes non-JSON through', () => {
    expect(canonicalJson('{"b":{"y":1,"x":[2,1]},"a":null}')).toBe(
      canonicalJson({ a: null, b: { x: [2, 1], y: 1 } }),
    );
    expect(canonicalJson('[1,2]')).not.toBe(canonicalJson('[2,1]'));
    expect(canonicalJson(' not json ')).toBe('not json');
  });

  it('treats missing, empty and {} arguments as the same call', () => {
    const fingerprints = [undefined, null, '', ' ', '{}', {}].map((args) =>
      toolCallFingerprint({ name: 't', arguments: args }),
    );
    expect(new Set(fingerprints).size).toBe(1);
  });
});

describe('LoopGuard', () => {
  it('trips on the same failing call, whatever the key order', () => {
    const guard = new LoopGuard({ maxRepeatedFailures: 2 });
    guard.record({ name: 'search', arguments: '{"q":"x","n":1}' }, failed({ name: 'search' }));
    expect(guard.checkFailures()).toBeUndefined();
    guard.record({ name: 'search', arguments: { n: 1, q: 'x' } }, failed({ name: 'search' }));
    expect(guard.checkFailures()).toEqual({
      code: 'repeated_failure',
      message: "'search' failed 2 times with the same arguments.",
    });
  });

  it('forgets a call that succeeded in between', () => {
    const guard = new LoopGuard({ maxRepeatedFailures: 2, maxConsecutiveFailures: 10 });
    const call = { name: 'search', arguments: '{"q":"x"}' };
    guard.record(call, failed(call));
    guard.record(call, succeeded(call));
    guard.record(call, failed(call));
    expect(guard.checkFailures()).toBeUndefined();
  });

  it('trips on consecutive failures of different calls; a success resets the count', () => {
    const guard = new LoopGuard({ maxConsecutiveFailures: 3 });
    guard.record({ name: 'a' }, failed({ name: 'a' }));
    guard.record({ name: 'b' }, failed({ name: 'b' }));
    guard.record({ name: 'c' }, succeeded({ name: 'c' }));
    guard.record({ name: 'd' }, failed({ name: 'd' }));
    guard.record({ name: 'e' }, failed({ name: 'e' }));
    expect(guard.consecutiveFailures).toBe(2);
    expect(guard.checkFailures()).toBeUndefined();
    guard.record({ name: 'f' }, failed({ name: 'f' }));
    expect(guard.checkFailures()?.code).toBe('consecutive_failures');
  });

  it('admits calls up to the per-run and per-tool limits', () => {
    const guard = new LoopGuard({ maxCallsPerRun: 3, maxCallsPerTool: { fetch: 1 } });
    expect(guard.admit({ name: 'fetch' })).toBeUndefined();
    expect(guard.admit({ name: 'fetch' })).toEqual({
      code: 'tool_call_limit',
      message: "Reached the limit of 1 calls to 'fetch' per run.",
    });
    expect(guard.admit({ name: 'toString' })).toBeUndefined();
    expect(guard.admit({ name: 'other' })).toBeUndefined();
    expect(guard.admit({ name: 'other' })?.code).toBe('run_call_limit');
  });

  it('applies one number to every tool', () => {
    const guard = new LoopGuard({ maxCallsPerTool: 1 });
    expect(guard.admit({ name: 'a' })).toBeUndefined();
    expect(guard.admit({ name: 'b' })).toBeUndefined();
    expect(guard.admit({ name: 'a' })?.code).toBe('tool_call_limit');
  });

  it('counts steps against the step limit', () => {
    const guard = new LoopGuard({ maxSteps: 2 });
    expect(guard.checkSteps(1)).toBeUndefined();
    expect(guard.checkSteps(2)).toEqual({
      code: 'max_steps',
      message: 'Reached the step limit (2).',
    });
  });
});
