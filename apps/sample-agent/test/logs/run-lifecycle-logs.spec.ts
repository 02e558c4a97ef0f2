import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer } from '../../src/http/create-server.js';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';

jest.setTimeout(180_000);

const API_KEY = 'sk-live-lifecycle-key-0123456789';

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the log lines');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The JSON lines of `output` whose message is a run lifecycle event. */
function lifecycleLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) =>
      (line['message'] as { event?: string } | undefined)?.event?.startsWith('run.'),
    );
}

describe('run lifecycle logs of the service process (stdout, JSON lines)', () => {
  let server: ServerProcess | undefined;
  beforeAll(() => buildApp());
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('logs a run started and finished, one JSON line each, secrets masked', async () => {
    server = await startServerProcess({ TOOLSHIELD_STORE: 'memory', OPENAI_API_KEY: API_KEY });
    const task = `Plan a trip to Lisbon. My key is ${API_KEY}, header Bearer abc.def.ghi`;
    const response = await fetch(`${server.baseUrl}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task, scenario: 'trip' }),
    });
    const { id } = (await response.json()) as { id: string };
    await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    await waitFor(() => lifecycleLines(server?.output() ?? '').length >= 2);
    const lines = lifecycleLines(server.output());
    expect(lines.map((line) => (line['message'] as { event: string }).event)).toEqual([
      'run.started',
      'run.finished',
    ]);
    const [started, finished] = lines;
    expect(started).toMatchObject({
      level: 'log',
      context: 'AgentRuns',
      message: {
        event: 'run.started',
        runId: id,
        scenario: 'trip',
        model: expect.stringContaining('scripted'),
      },
    });
    expect(finished).toMatchObject({
      level: 'log',
      context: 'AgentRuns',
      message: {
        event: 'run.finished',
        runId: id,
        status: 'completed',
        durationMs: expect.any(Number),
        toolCalls: 5,
        failures: { network: 2, not_found: 1 },
      },
    });
    expect(server.output()).not.toContain(API_KEY);
    expect(server.output()).not.toContain('abc.def.ghi');
  });
});

describe('run lifecycle logs of a resumed run (a captured logger)', () => {
  let app: NestExpressApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('logs the run resumed after a restart, then finished', async () => {
    const store = new InMemoryRunStore();
    await store.createRun({
      id: 'run-left-running',
      task: 'What is 2 + 2?',
      model: 'scripted',
      status: 'running',
      createdAt: new Date().toISOString(),
    });
    const lines: unknown[] = [];
    const capture: LoggerService = {
      log: (message: unknown, context?: unknown) => {
        if (context === 'AgentRuns') lines.push({ message, context });
      },
      error: () => undefined,
      warn: () => undefined,
    };
    app = await createServer({ store, logger: capture });
    await waitFor(() => lines.length >= 2);
    expect(lines).toEqual([
      {
        message: expect.objectContaining({
          event: 'run.resumed',
          runId: 'run-left-running',
          repairedCalls: 0,
        }),
        context: 'AgentRuns',
      },
      {
        message: expect.objectContaining({
          event: 'run.finished',
          runId: 'run-left-running',
          resumed: 1,
          status: expect.any(String),
        }),
        context: 'AgentRuns',
      },
    ]);
  });
});
