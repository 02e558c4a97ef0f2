import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
} from '@toolshield/core/agent';
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

/** A run's record as `GET /api/runs/:id` returns it, in the parts these specs read. */
interface RunView {
  status: string;
  finalAnswer?: string;
  messages: Parameters<typeof toOpenAIMessages>[0];
  toolCalls: { tool: string; status: string; modelSaw?: string }[];
}

/**
 * Starts `scenario` on `server`, follows its events and SIGKILLs the server as soon as a call
 * of `tool` has started; returns the run's id and the events a client saw before the kill.
 */
async function killDuringCall(server: ServerProcess, scenario: string, tool: string) {
  const created = await fetch(`${server.baseUrl}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: `Crash test of ${scenario}.`, scenario }),
  });
  const { id } = (await created.json()) as { id: string };
  const seen: ReceivedEvent[] = [];
  await readEventStream(`${server.baseUrl}/api/runs/${id}/events`, {
    onEvent: (event) => {
      seen.push(event);
      const { data } = JSON.parse(event.data) as { data: { type: string; tool?: string } };
      if (data.type === 'call.started' && data.tool === tool) server.child.kill('SIGKILL');
    },
  }).catch(() => undefined);
  await server.stop('SIGKILL');
  expect(seen.map((event) => JSON.parse(event.data).data.type)).toContain('call.started');
  return { id, seen };
}

/** What the model read for a call: the `ToolFailure` JSON of its tool result. */
function failureSeen(call: { modelSaw?: string } | undefined) {
  return JSON.parse(call?.modelSaw ?? '{}') as { recoverable?: boolean; suggestions?: string[] };
}

describe.each(backends)('a server killed mid tool call, on $name', (backend) => {
  const processes: ServerProcess[] = [];
  let drop: (() => Promise<void>) | undefined;

  beforeAll(() => buildApp());
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((server) => server.stop('SIGKILL')));
    await drop?.();
  });

  async function start(env: Record<string, string | undefined>): Promise<ServerProcess> {
    const server = await startServerProcess(env);
    processes.push(server);
    return server;
  }

  it('resumes the run at the next start, makes the interrupted call of an idempotent tool again, loses no event and completes', async () => {
    const database = await backend.open();
    drop = database.drop;
    const first = await start(database.env);
    // web_search is idempotent and read-only: safe to repeat.
    const { id, seen } = await killDuringCall(first, 'slow-web', 'web_search');

    const second = await start(database.env);
    const replay = await readEventStream(`${second.baseUrl}/api/runs/${id}/events`);
    const events = replay.events.map((event) => JSON.parse(event.data));

    // Nothing a client saw before the kill is lost, and the numbering carries on.
    expect(replay.events.slice(0, seen.length)).toEqual(seen);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.data.type);
    expect(types).toContain('run.resumed');
    expect(events.at(-1).data).toMatchObject({ type: 'run.finished', status: 'completed' });

    const run = (await (await fetch(`${second.baseUrl}/api/runs/${id}`)).json()) as RunView;
    expect(run.status).toBe('completed');
    const searches = run.toolCalls.filter((call) => call.tool === 'web_search');
    expect(searches.map((call) => call.status)).toEqual(['interrupted', 'succeeded']);
    expect(searches[0]?.modelSaw).toContain('Interrupted before its result was recorded');
    expect(searches[0]?.modelSaw).not.toContain('may or may not have taken effect');
    expect(failureSeen(searches[0])).toMatchObject({
      errorType: 'cancelled',
      recoverable: true,
      suggestions: ['Call it again with the same arguments.'],
    });
    expect(validateOpenAIHistory(toOpenAIMessages(run.messages))).toEqual([]);
    expect(validateAnthropicHistory(toAnthropicMessages(run.messages).messages)).toEqual([]);
  });

  it('reports an interrupted call of a tool that is not idempotent as an unknown outcome, and does not repeat it', async () => {
    const database = await backend.open();
    drop = database.drop;
    const first = await start(database.env);
    // create_namespace is not idempotent; a latency fault holds it long enough to kill it.
    const slowCreate = await fetch(`${first.baseUrl}/api/chaos`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        enabled: true,
        rules: [
          {
            name: 'slow-create',
            tools: ['create_namespace'],
            fault: { kind: 'latency', ms: 60_000 },
          },
        ],
      }),
    });
    expect(slowCreate.status).toBe(200);
    const { id } = await killDuringCall(first, 'kube-missing-namespace', 'create_namespace');

    const second = await start(database.env);
    const replay = await readEventStream(`${second.baseUrl}/api/runs/${id}/events`);
    expect(JSON.parse(replay.events.at(-1)?.data ?? '{}').data).toMatchObject({
      type: 'run.finished',
    });

    const run = (await (await fetch(`${second.baseUrl}/api/runs/${id}`)).json()) as RunView;
    const creates = run.toolCalls.filter((call) => call.tool === 'create_namespace');
    expect(creates.map((call) => call.status)).toEqual(['interrupted']);
    expect(creates[0]?.modelSaw).toContain('may or may not have taken effect');
    expect(failureSeen(creates[0])).toMatchObject({
      errorType: 'cancelled',
      recoverable: false,
      effect: 'unknown',
      suggestions: [
        'Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ],
    });
    expect(run.status).toBe('stopped');
    expect(run.finalAnswer).toContain('may or may not have taken effect');
    expect(validateOpenAIHistory(toOpenAIMessages(run.messages))).toEqual([]);
  });
});
