import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolOutcome } from '@toolshield/core';
import { Retryable, Tool, ToolCircuitBreakers } from '../../src/index.js';
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

  @Tool({
    idempotent: true,
    description: 'Retries even an open breaker (its 30 s wait is past maxRetryAfterMs).',
  })
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

  it.each([
    ['plain', { success: false, errorType: 'circuit_open', retryMax: 0 }],
    ['idempotent', { success: false, errorType: 'circuit_open', retryMax: 2 }],
    ['retriesOpen', { success: false, errorType: 'rate_limited', retryMax: 1 }],
    ['fallsBack', { success: true, output: 'cached' }],
    ['keyed', { success: false, errorType: 'circuit_open' }],
    ['limited', { success: false, errorType: 'circuit_open' }],
  ])(
    '%s: ends the same whether or not anyone observes the events, without running the tool',
    async (name, expected) => {
      const call = () =>
        app.executor.execute({ id: 'c', name, arguments: {} }, { metadata: { tenant: 'a' } });

      const unobserved = await call();
      const subscription = app.executor.events$.subscribe(() => undefined);
      const observed = await call();
      subscription.unsubscribe();

      expect(unobserved).toMatchObject(expected);
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
