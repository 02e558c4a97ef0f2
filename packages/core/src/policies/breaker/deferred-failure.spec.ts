import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import { ToolCircuitBreaker, type BreakerCallOptions } from './circuit-breaker.js';

const down = async (): Promise<never> => {
  throw new UpstreamUnavailableError('503 Service Unavailable');
};

function breaker() {
  return new ToolCircuitBreaker(
    { volumeThreshold: 2, errorThresholdPercentage: 50 },
    { clock: new VirtualClock({ startMs: 0 }), tool: 'search' },
  );
}

describe('counting calls, not attempts (deferFailure)', () => {
  it('hands a failure to deferFailure instead of counting it, and leaves the options as they were', async () => {
    const target = breaker();
    const counts: (() => void)[] = [];
    const options: BreakerCallOptions = { deferFailure: (count) => counts.push(count) };
    const before = { ...options };
    await expect(target.execute(down, options)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(options).toEqual(before);
    expect(counts).toHaveLength(1);
    expect(target.stats()).toEqual({ successes: 0, failures: 0 });
    counts[0]?.();
    expect(target.stats()).toEqual({ successes: 0, failures: 1 });
  });

  it('a count that is never run (the retry succeeded) never reaches the window', async () => {
    const target = breaker();
    const options: BreakerCallOptions = { deferFailure: () => undefined };
    for (let i = 0; i < 5; i++) await target.execute(down, options).catch(() => undefined);
    expect(target.stats()).toEqual({ successes: 0, failures: 0 });
    expect(target.state).toBe('closed');
  });

  it('a count run after the breaker moved on (another period) is not counted', async () => {
    const target = breaker();
    let count: (() => void) | undefined;
    await target.execute(down, { deferFailure: (deferred) => (count = deferred) }).catch(() => 0);
    target.open();
    target.close();
    count?.();
    expect(target.stats()).toEqual({ successes: 0, failures: 0 });
  });
});
