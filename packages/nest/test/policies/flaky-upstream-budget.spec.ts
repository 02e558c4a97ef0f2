import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import fc from 'fast-check';
import { Tool } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';

const CALLS = 6_000;
const FAILURE_RATE = 0.3;

/** A default idempotent tool whose upstream fails an attempt with probability `failureRate` (draws in millionths). */
@Injectable()
class CoinFlipTools {
  draws: Iterator<number> = [][Symbol.iterator]();
  failureRate = 0;
  requests = 0;

  @Tool({ name: 'web_search', description: 'Searches the web.', idempotent: true })
  webSearch() {
    this.requests++;
    if ((this.draws.next().value ?? 0) / 1_000_000 < this.failureRate)
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    return 'results';
  }
}

// The bench through ToolExecutor with the module's defaults (retry budget, breaker,
// timeout) and 3 retries. Before the budget was earned by successes, about a fifth of the
// calls had a retry withheld, and those failures opened the default breaker.
describe('a flaky upstream behind the default retry budget, through ToolExecutor', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>> | undefined;
  afterEach(() => ctx?.close());

  it(`withholds no retry and never opens the breaker at 30 % failing attempts over ${CALLS} calls`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.infiniteStream(fc.noBias(fc.integer({ min: 0, max: 999_999 }))),
        async (draws) => {
          await ctx?.close();
          ctx = await createToolApp([CoinFlipTools], { defaults: { retry: { maxRetries: 3 } } });
          const events: ToolEvent[] = [];
          ctx.executor.events$.subscribe((event) => events.push(event));
          const tools = ctx.moduleRef.get(CoinFlipTools);
          tools.draws = draws[Symbol.iterator]();
          tools.failureRate = FAILURE_RATE;
          let successes = 0;
          for (let call = 0; call < CALLS; call++) {
            const outcome: ToolOutcome = await settle(
              ctx.clock,
              ctx.executor.execute({ id: `c${call}`, name: 'web_search', arguments: {} }),
            );
            if (outcome.success) successes++;
          }
          const types = new Set(events.map((event) => event.type));
          expect(types.has('retry.withheld')).toBe(false);
          expect(types.has('breaker.state_changed')).toBe(false);
          expect(successes / CALLS).toBeGreaterThanOrEqual(1 - FAILURE_RATE ** 4 - 0.005);
        },
      ),
      { numRuns: 1 },
    );
  });
});
