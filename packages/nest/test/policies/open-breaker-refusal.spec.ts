import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolCircuitBreaker, ToolOutcome } from '@toolshield/core';
import { Retryable, Tool, ToolCircuitBreakers, type ToolLane } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

@Injectable()
class DownTools {
  ran = 0;

  @Tool({ description: 'Default policies.' })
  async plain() {
    return ++this.ran;
  }

  @Tool({ description: 'Idempotent: retried.', idempotent: true })
  async idempotent() {
    return ++this.ran;
  }

  @Tool({ description: 'Retries even an open breaker (its 30 s wait is past maxRetryAfterMs).' })
  @Retryable({ maxRetries: 1, retryOn: ['circuit_open'], maxRetryAfterMs: 1_000 })
  async retriesOpen() {
    return ++this.ran;
  }

  @Tool({ description: 'Falls back.', fallback: { on: ['circuit_open'], value: 'cached' } })
  async fallsBack() {
    return ++this.ran;
  }

  @Tool({
    description: 'One breaker per tenant.',
    breaker: { key: (call) => String(call.metadata.tenant) },
  })
  async keyed() {
    return ++this.ran;
  }

  @Tool({ description: 'Rate-limited before its breaker.', rateLimit: { rate: 100, burst: 5 } })
  async limited() {
    return ++this.ran;
  }
}

const TOOLS = ['plain', 'idempotent', 'retriesOpen', 'fallsBack', 'keyed', 'limited'];
/** The tools whose refusal can be decided before the call is set up. */
const SHORTCUT = new Set(['plain', 'idempotent']);

/** The outcome, without what differs from one call to the next. */
function comparable(outcome: ToolOutcome): unknown {
  const { callId: _callId, ...rest } = outcome;
  return { ...rest, metadata: { ...outcome.metadata, durationMs: 0 } };
}

describe('a call refused by an open breaker', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  let tools: DownTools;

  beforeEach(async () => {
    app = await createToolApp([DownTools]);
    tools = app.moduleRef.get(DownTools);
    const breakers = app.moduleRef.get(ToolCircuitBreakers);
    for (const name of TOOLS) {
      await app.executor.execute(
        { id: 'warm', name, arguments: {} },
        { metadata: { tenant: 'a' } },
      );
      await breakers.open(name === 'keyed' ? 'keyed:a' : name);
    }
    tools.ran = 0;
  });

  afterEach(() => app.close());

  it.each(TOOLS)(
    '%s: ends as it would through the whole pipeline, without running the tool',
    async (name) => {
      const call = () =>
        app.executor.execute({ id: 'c', name, arguments: {} }, { metadata: { tenant: 'a' } });
      const breaker = app.moduleRef
        .get(ToolCircuitBreakers)
        .find(name === 'keyed' ? 'keyed:a' : name) as ToolCircuitBreaker;
      const execute = jest.spyOn(breaker, 'execute');

      const unobserved = await call();
      const lane: ToolLane | undefined = app.registry.get(name)?.lane;
      const shortcut = lane === 'direct' && SHORTCUT.has(name);
      expect(execute).toHaveBeenCalledTimes(shortcut ? 0 : 1);

      const subscription = app.executor.events$.subscribe(() => undefined);
      const observed = await call(); // events observed: always the whole pipeline
      subscription.unsubscribe();

      expect(comparable(unobserved)).toEqual(comparable(observed));
      expect(tools.ran).toBe(0);
    },
  );

  it('keeps what the pipeline would say: the retries the policy allows, and rate_limited when the retry policy waits too long', async () => {
    const retried = await app.executor.execute({ id: 'c', name: 'retriesOpen', arguments: {} });
    expect(retried).toMatchObject({ errorType: 'rate_limited', retryMax: 1 });
    const outcome = await app.executor.execute({ id: 'c', name: 'idempotent', arguments: '{}' });
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'circuit_open',
      retryCount: 0,
      retryMax: 2,
      metadata: { breakerKey: 'idempotent', state: 'open', attempts: 1 },
    });
  });
});
