import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { InvalidOptionsError } from '../../options/invalid-options.error.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import {
  CircuitBreakerRegistry,
  openingRules,
  ToolCircuitBreaker,
  type BreakerOpeningRule,
  type CircuitBreakerOptions,
} from '../../internal.js';

const down = async (): Promise<never> => {
  throw new UpstreamUnavailableError('503 Service Unavailable');
};
const up = async () => 'ok';

/** A breaker after 30 healthy calls, then `failures` failed ones: its state. */
async function stateAfterHealthyThenDead(
  failures: number,
  options: CircuitBreakerOptions = {},
): Promise<string> {
  const breaker = new ToolCircuitBreaker(options, {
    clock: new VirtualClock({ startMs: 0 }),
    tool: 'search',
  });
  for (let i = 0; i < 30; i++) await breaker.execute(up);
  for (let i = 0; i < failures; i++) await breaker.execute(down).catch(() => undefined);
  return breaker.state;
}

describe('the opening rule option', () => {
  it('by default opens on a run of failures improbable after healthy traffic (4 after 30 successes)', async () => {
    await expect(stateAfterHealthyThenDead(3)).resolves.toBe('closed');
    await expect(stateAfterHealthyThenDead(4)).resolves.toBe('open');
    await expect(
      stateAfterHealthyThenDead(4, { openingRule: openingRules.failureRatioOrRun }),
    ).resolves.toBe('open');
  });

  it('failureRatio is opossum rule alone: the run does not open it, the ratio does', async () => {
    const ratioOnly = { openingRule: openingRules.failureRatio };
    await expect(stateAfterHealthyThenDead(30, ratioOnly)).resolves.toBe('closed');
    await expect(stateAfterHealthyThenDead(31, ratioOnly)).resolves.toBe('open');
  });

  it('is set for every breaker of a registry through its defaults (the README example)', () => {
    const breakers = new CircuitBreakerRegistry({
      clock: new VirtualClock(),
      defaults: { openingRule: openingRules.failureRatio, volumeThreshold: 20 },
    });
    expect(breakers.get('search').options.openingRule).toBe(openingRules.failureRatio);
    breakers.dispose();
  });

  it('failureRun ignores the ratio', async () => {
    const breaker = new ToolCircuitBreaker(
      { openingRule: openingRules.failureRun, volumeThreshold: 2, errorThresholdPercentage: 10 },
      { clock: new VirtualClock({ startMs: 0 }), tool: 'search' },
    );
    for (let i = 0; i < 3; i++) {
      await breaker.execute(up);
      await breaker.execute(down).catch(() => undefined);
    }
    expect(breaker.state).toBe('closed');
  });

  it('takes a rule of your own, given the counts and the resolved options', async () => {
    const seen: unknown[] = [];
    const threeFailures: BreakerOpeningRule = {
      shouldOpen: (counts, options) => {
        seen.push({ ...counts, volumeThreshold: options.volumeThreshold });
        return counts.failures >= 3;
      },
    };
    const breaker = new ToolCircuitBreaker(
      { openingRule: threeFailures },
      { clock: new VirtualClock({ startMs: 0 }), tool: 'search' },
    );
    await breaker.execute(up);
    for (let i = 0; i < 3; i++) await breaker.execute(down).catch(() => undefined);
    expect(breaker.state).toBe('open');
    expect(seen.at(-1)).toEqual({ successes: 1, failures: 3, run: 3, volumeThreshold: 10 });
  });

  it('refuses an opening rule without shouldOpen', () => {
    const notARule = { openingRule: {} as BreakerOpeningRule };
    expect(
      () => new ToolCircuitBreaker(notARule, { tool: 'search', clock: new VirtualClock() }),
    ).toThrow(InvalidOptionsError);
  });
});
