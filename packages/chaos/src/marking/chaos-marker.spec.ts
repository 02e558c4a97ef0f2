import { describe, expect, it } from '@jest/globals';
import { NetworkError } from '@toolshield/core';
import { CHAOS_MARKER, chaosMarkOf, isChaosInjected, markChaos } from './chaos-marker.js';

describe('markChaos', () => {
  it('marks an Error with metadata and an invisible symbol, keeping existing metadata', () => {
    const error = markChaos(new NetworkError('reset', { metadata: { url: 'https://x.test' } }), {
      fault: 'network:ECONNRESET',
      rule: 'r1',
    });
    expect(error.metadata).toEqual({
      url: 'https://x.test',
      chaos: true,
      chaosFault: 'network:ECONNRESET',
      chaosRule: 'r1',
    });
    expect(Object.getOwnPropertySymbols(error)).toContain(CHAOS_MARKER);
    expect(Object.keys(error)).not.toContain(CHAOS_MARKER.toString());
    expect(chaosMarkOf(error)).toEqual({ fault: 'network:ECONNRESET', rule: 'r1' });
  });

  it('leaves primitives alone and keeps marked objects JSON-identical', () => {
    expect(markChaos('boom', { fault: 'thrown:string' })).toBe('boom');
    expect(isChaosInjected('boom')).toBe(false);
    const payload = markChaos({ a: 1 }, { fault: 'malformed-output:circular' });
    expect(JSON.stringify(payload)).toBe('{"a":1}');
    expect({ ...payload }).toEqual({ a: 1 });
    expect(isChaosInjected({ ...payload })).toBe(false);
  });
});

describe('isChaosInjected', () => {
  it('recognises failure payloads and events that say chaos', () => {
    expect(
      isChaosInjected({ success: false, metadata: { chaos: true, chaosFault: 'http:429' } }),
    ).toBe(true);
    expect(chaosMarkOf({ metadata: { chaos: true } })).toEqual({ fault: 'unknown' });
    expect(isChaosInjected({ type: 'chaos.injected', fault: 'latency', rule: 'r' })).toBe(true);
  });

  it('says no to real incidents', () => {
    expect(isChaosInjected(new Error('real'))).toBe(false);
    expect(isChaosInjected({ success: false, metadata: { chaos: false } })).toBe(false);
    expect(isChaosInjected(null)).toBe(false);
    expect(isChaosInjected(undefined)).toBe(false);
  });
});
