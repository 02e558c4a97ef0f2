import { describe, expect, it } from '@jest/globals';
import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { ToolBatchEntry } from '@toolshield/core/agent';
import {
  Tool,
  ToolArgs,
  ToolBatchRunner,
  ToolCircuitBreakers,
  ToolExecutor,
  ToolShieldModule,
} from '../src/index.js';

const SCHEMA = { type: 'object', properties: { q: { type: 'string' } } } as const;

@Injectable()
class QuotaTools {
  readonly ran: string[] = [];

  @Tool({ name: 'search', description: 'Searches.', inputSchema: SCHEMA })
  search(@ToolArgs() args: { q?: string }) {
    this.ran.push(`search ${args.q ?? ''}`);
    if (args.q === 'quota') {
      throw new HttpException(
        { message: 'The quota is used up.', headers: { 'retry-after': '30' } },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    return { hits: 1 };
  }

  @Tool({ name: 'complete', description: 'Ends the task.', inputSchema: SCHEMA })
  complete() {
    this.ran.push('complete');
    return 'done';
  }
}

async function start() {
  const moduleRef = await Test.createTestingModule({
    imports: [ToolShieldModule.forRoot({ random: () => 0.5 })],
    providers: [QuotaTools],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

/** The snippets and claims of packages/nest/README.md, run as written. */
describe('the nest README', () => {
  it('carries Retry-After on a Nest HttpException', async () => {
    const moduleRef = await start();
    const outcome = await moduleRef
      .get(ToolExecutor)
      .execute({ id: 'c1', name: 'search', arguments: { q: 'quota' } });
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'rate_limited',
      retryAfterMs: 30_000,
    });
    await moduleRef.close();
  });

  it('states() lists every breaker used so far as { key, tool, state }', async () => {
    const moduleRef = await start();
    await moduleRef.get(ToolExecutor).execute({ id: 'c1', name: 'search', arguments: { q: 'x' } });
    const breakers = moduleRef.get(ToolCircuitBreakers);
    expect(breakers.states()).toEqual([{ key: 'search', tool: 'search', state: 'closed' }]);
    await expect(breakers.isolate('search')).resolves.toEqual({
      key: 'search',
      tool: 'search',
      state: 'isolated',
    });
    await moduleRef.close();
  });

  it('a terminating tool ends a parallel batch too', async () => {
    const moduleRef = await start();
    const { entries, terminatedBy } = await moduleRef.get(ToolBatchRunner).run(
      [
        { id: 'a', name: 'search', arguments: { q: 'before' } },
        { id: 'b', name: 'complete', arguments: {} },
        { id: 'c', name: 'search', arguments: { q: 'after' } },
      ],
      { strategy: 'parallel', concurrency: 4 },
    );
    expect(entries.map((entry: ToolBatchEntry) => entry.disposition)).toEqual([
      'executed',
      'executed',
      'skipped',
    ]);
    expect(terminatedBy?.callId).toBe('b');
    expect(moduleRef.get(QuotaTools).ran).toEqual(['search before', 'complete']);
    await moduleRef.close();
  });
});
