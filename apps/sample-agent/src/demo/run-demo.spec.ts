import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { ModelSelector } from '../agent/select-model.js';
import { InMemoryRunStore } from '../runs/in-memory-run-store.js';
import { ServerModule } from '../server.module.js';
import { DEMO_SCENARIOS, runDemo } from './run-demo.js';

// Real time: the upstream's Retry-After and slow answers take a few seconds.
jest.setTimeout(60_000);

describe('the demo (npm start)', () => {
  let app: INestApplicationContext;
  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(
      ServerModule.forRoot({
        store: new InMemoryRunStore(),
        models: new ModelSelector({}),
        chaos: true,
      }),
      { logger: false },
    );
  });
  afterAll(() => app.close());

  it('runs every scenario with chaos on, printing the trace as it happens, and ends with the table', async () => {
    const lines: string[] = [];
    const { summaries, asExpected } = await runDemo(app, (line) => lines.push(line));

    expect(asExpected).toBe(true);
    expect(summaries.map((summary) => summary.name)).toEqual([...DEMO_SCENARIOS]);
    expect(summaries.find((summary) => summary.name === 'kube-deploy-forbidden')).toMatchObject({
      status: 'stopped',
      failures: { permission_denied: 1 },
    });
    // The outage: the breaker opens, calls fail fast, the model waits, the breaker closes.
    expect(summaries.find((summary) => summary.name === 'outage')).toMatchObject({
      status: 'completed',
      breakerOpenings: 1,
      failures: { circuit_open: 2 },
    });
    const output = lines.join('\n');
    expect(output).toContain('⚡ breaker news_search:lane-1: closed → open');
    expect(output).toMatch(/circuit_open, recoverable, retries 0\/2, retry after \d+ms/);
    expect(output).toContain('→ wait {"seconds":2}');
    expect(output).toContain('⚡ breaker news_search:lane-1: open → half_open');
    expect(output).toContain('⚡ breaker news_search:lane-1: half_open → closed');
    expect(output).toContain('model: scripted stand-in for an LLM');
    expect(output).toMatch(/↻ web_search: attempt 2 in \d+ ms/);
    expect(output).toContain('? decision prompt: Tool failed:');
    expect(output).toContain('■ stopped: I could not get the web deployment in prod');
    const table = lines.at(-1) ?? '';
    expect(table.split('\n')[0]).toMatch(
      /^scenario +│ status +│ calls │ attempts │ retries │ breaker openings │ duration │ failures by type$/,
    );
    expect(table).toMatch(/\ntotal +│ +│ \d+ +│ \d+ +│ \d+ +│/);
  });
});
