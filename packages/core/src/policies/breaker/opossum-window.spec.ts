import { afterEach, describe, expect, it, jest } from '@jest/globals';
import CircuitBreaker from 'opossum';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';
import { openRollingWindow } from './opossum-window.js';

/**
 * The contract with opossum that the breaker relies on beyond its typings. When an opossum
 * upgrade breaks one of these, re-check opossum-window.ts (and ADR 0008) before anything else.
 */
describe('the opossum rolling window contract', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('is opossum 10, the major this adapter was written against', () => {
    const manifest = createRequire(import.meta.url).resolve('opossum/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    expect(`opossum ${version.split('.')[0]}`).toBe('opossum 10');
  });

  it('Status still has the untyped increment and shutdown the breaker calls', () => {
    const status = CircuitBreaker.newStatus({ rotateBucketController: new EventEmitter() });
    const untyped = status as unknown as Record<string, unknown>;
    expect(typeof untyped['increment']).toBe('function');
    expect(typeof untyped['shutdown']).toBe('function');
    (untyped['shutdown'] as () => void).call(status);
  });

  it('counts fires, successes and failures into the newest bucket', () => {
    const window = openRollingWindow({
      windowMs: 10_000,
      buckets: 10,
      rotation: new EventEmitter(),
    });
    window.increment('fires');
    window.increment('successes', 5);
    window.increment('fires');
    window.increment('failures', 7);
    window.increment('fires');
    window.increment('failures', 1);
    expect(window.stats).toMatchObject({ fires: 3, successes: 1, failures: 2 });
    window.shutdown();
  });

  it('starts from initial counts', () => {
    const window = openRollingWindow({
      windowMs: 10_000,
      buckets: 10,
      rotation: new EventEmitter(),
      initial: { successes: 4, failures: 6 },
    });
    expect(window.stats).toMatchObject({ fires: 10, successes: 4, failures: 6 });
    window.shutdown();
  });

  it('rotates one bucket per rotate event and forgets everything after a full window', () => {
    const rotation = new EventEmitter();
    const window = openRollingWindow({ windowMs: 3_000, buckets: 3, rotation });
    window.increment('failures');
    rotation.emit('rotate');
    window.increment('successes');
    expect(window.stats).toMatchObject({ successes: 1, failures: 1 });
    rotation.emit('rotate');
    rotation.emit('rotate');
    expect(window.stats).toMatchObject({ successes: 1, failures: 0 });
    rotation.emit('rotate');
    expect(window.stats).toMatchObject({ successes: 0, failures: 0 });
    window.shutdown();
  });

  it('sets no timer of its own, and shutdown stops listening for rotations', () => {
    jest.useFakeTimers();
    const rotation = new EventEmitter();
    const window = openRollingWindow({ windowMs: 10_000, buckets: 10, rotation });
    expect(jest.getTimerCount()).toBe(0);
    expect(rotation.listenerCount('rotate')).toBe(1);
    window.shutdown();
    expect(rotation.listenerCount('rotate')).toBe(0);
  });
});
