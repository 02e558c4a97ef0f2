import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
} from '@toolshield/core';
import { readEventStream, type ReceivedEvent } from '../fixtures/sse-client.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import {
  freshPostgresDatabase,
  freshSqliteDirectory,
  TEST_DATABASE_URL,
} from '../fixtures/stores.js';

jest.setTimeout(180_000);

interface Backend {
  readonly name: string;
  open(): Promise<{ env: Record<string, string | undefined>; drop: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    open: async () => {
      const { dir, drop } = freshSqliteDirectory();
      return {
        env: { TOOLSHIELD_DATA_DIR: dir, DATABASE_URL: undefined, TOOLSHIELD_STORE: undefined },
        drop,
      };
    },
  },
  ...(TEST_DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          open: async () => {
            const database = await freshPostgresDatabase(TEST_DATABASE_URL as string);
            return {
              env: { DATABASE_URL: database.url, TOOLSHIELD_STORE: undefined },
              drop: database.drop,
            };
          },
        },
      ]
    : []),
];

describe.each(backends)('a server killed mid tool call, on $name', (backend) => {
  const processes: ServerProcess[] = [];
  let drop: (() => Promise<void>) | undefined;

  beforeAll(() => buildApp());
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((server) => server.stop('SIGKILL')));
    await drop?.();
  });

  it('resumes the run at the next start, answers the interrupted call, loses no event and completes', async () => {
    const database = await backend.open();
    drop = database.drop;
    const first = await startServerProcess(database.env);
    processes.push(first);

    const created = await fetch(`${first.baseUrl}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'Research bulkheads.', scenario: 'slow-web' }),
    });
    const { id } = (await created.json()) as { id: string };

    // Follow the run; SIGKILL the server as soon as the slow web_search call has started.
    const seen: ReceivedEvent[] = [];
    await readEventStream(`${first.baseUrl}/api/runs/${id}/events`, {
      onEvent: (event) => {
        seen.push(event);
        const { data } = JSON.parse(event.data) as { data: { type: string; tool?: string } };
        if (data.type === 'call.started' && data.tool === 'web_search') first.child.kill('SIGKILL');
      },
    }).catch(() => undefined);
    await first.stop('SIGKILL');
    expect(seen.map((event) => JSON.parse(event.data).data.type)).toContain('call.started');

    const second = await startServerProcess(database.env);
    processes.push(second);
    const replay = await readEventStream(`${second.baseUrl}/api/runs/${id}/events`);
    const events = replay.events.map((event) => JSON.parse(event.data));

    // Nothing a client saw before the kill is lost, and the numbering carries on.
    expect(replay.events.slice(0, seen.length)).toEqual(seen);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.data.type);
    expect(types).toContain('run.resumed');
    expect(events.at(-1).data).toMatchObject({ type: 'run.finished', status: 'completed' });

    const run = (await (await fetch(`${second.baseUrl}/api/runs/${id}`)).json()) as {
      status: string;
      messages: Parameters<typeof toOpenAIMessages>[0];
      toolCalls: { tool: string; status: string; modelSaw?: string }[];
    };
    expect(run.status).toBe('completed');
    const searches = run.toolCalls.filter((call) => call.tool === 'web_search');
    expect(searches.map((call) => call.status)).toEqual(['interrupted', 'succeeded']);
    expect(searches[0]?.modelSaw).toContain('Interrupted before its result was recorded');
    expect(validateOpenAIHistory(toOpenAIMessages(run.messages))).toEqual([]);
    expect(validateAnthropicHistory(toAnthropicMessages(run.messages).messages)).toEqual([]);
  });
});
