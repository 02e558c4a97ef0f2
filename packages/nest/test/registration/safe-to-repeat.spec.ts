import { describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { Retryable, Tool, ToolRegistrar, type ToolOptions } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/**
 * Whether a tool is safe to repeat is declared one way, `idempotent: true`; `@Retryable()` (and
 * `retryable` in code) only says how such a tool is retried, and MCP's `idempotentHint` is
 * published from the declaration. A second, conflicting declaration stops startup in one line.
 */
describe('safe to repeat, declared once', () => {
  it('refuses @Retryable() on a tool not declared idempotent', async () => {
    @Injectable()
    class PaymentTools {
      @Tool({ name: 'pay_invoice', description: 'Pays an invoice.' })
      @Retryable({ maxRetries: 2 })
      pay() {
        return 'paid';
      }
    }
    await expect(createToolApp([PaymentTools])).rejects.toThrow(
      'Invalid tool options: @Retryable(pay_invoice) must be on a tool declared idempotent (a retried call runs more than once: add idempotent: true to its @Tool() options, or remove @Retryable()), got an object.',
    );
  });

  it('refuses annotations.idempotentHint: idempotent is the declaration, the hint is published from it', async () => {
    @Injectable()
    class SearchTools {
      @Tool({
        name: 'search',
        description: 'Searches.',
        annotations: { readOnlyHint: true, idempotentHint: true } as ToolOptions['annotations'],
      })
      search() {
        return [];
      }
    }
    await expect(createToolApp([SearchTools])).rejects.toThrow(
      "Invalid tool options: @Tool(search).annotations.idempotentHint must be left out (MCP's idempotentHint is published from idempotent: declare idempotent: true instead), got true.",
    );
  });

  it('refuses retry options of a tool registered in code that is not declared idempotent', async () => {
    const { moduleRef } = await createToolApp([]);
    const registrar = moduleRef.get(ToolRegistrar);
    expect(() =>
      registrar.register({
        name: 'send_email',
        description: 'Sends an email.',
        retryable: { maxRetries: 1 },
        handler: () => 'sent',
      }),
    ).toThrow(
      'Invalid tool options: @Retryable(send_email) must be on a tool declared idempotent (a retried call runs more than once: add idempotent: true to its @Tool() options, or remove @Retryable()), got an object.',
    );
    await moduleRef.close();
  });

  it('retries an idempotent tool with its @Retryable() options', async () => {
    let calls = 0;
    @Injectable()
    class FlakyTools {
      @Tool({ name: 'lookup', description: 'Looks up.', idempotent: true, breaker: false })
      @Retryable({ maxRetries: 1, backoff: { baseMs: 1, capMs: 1, jitter: 'none' } })
      lookup() {
        if (++calls === 1) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
        return 'found';
      }
    }
    const { executor, clock, moduleRef } = await createToolApp([FlakyTools]);
    const outcome = clock.runUntilSettled(executor.execute({ name: 'lookup', arguments: {} }));
    await expect(outcome).resolves.toMatchObject({ success: true, output: 'found' });
    expect(calls).toBe(2);
    await moduleRef.close();
  });
});
