import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { readEventStream } from '../fixtures/sse-client.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { freshSqliteDirectory } from '../fixtures/stores.js';

jest.setTimeout(180_000);

const REPO_DIR = join(import.meta.dirname, '..', '..', '..', '..');

/**
 * `npm run <script>` from the repository root, as a process manager would start it. (`npm run
 * serve` is the same command after an Nx build; it is not started here, where Nx runs the
 * tests.)
 */
async function startWithNpm(script: string, env: Record<string, string>, detached = false) {
  const child: ChildProcess = spawn('npm', ['run', script], {
    cwd: REPO_DIR,
    detached, // a process group of its own, as a terminal's foreground job
    env: { ...process.env, PORT: '0', NX_DAEMON: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /listening on (http:\/\/\S+) /.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before listening:\n${output}`)),
    );
  });
  return { child, baseUrl, exited, output: () => output };
}

/** Whether anything accepts a connection on the URL's port. */
function listening(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startRun(baseUrl: string, scenario: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: `Graceful stop of ${scenario}.`, scenario }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The run as a server started on the same data directory sees it: its status and event types. */
async function runAfterRestart(server: ServerProcess, id: string) {
  const replay = await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
  const run = (await (await fetch(`${server.baseUrl}/api/runs/${id}`)).json()) as {
    status: string;
  };
  return {
    status: run.status,
    types: replay.events.map((event) => JSON.parse(event.data).data.type as string),
  };
}

describe('a process manager stops the service with SIGTERM to the pid it started', () => {
  const servers: ServerProcess[] = [];
  const drops: (() => Promise<void>)[] = [];
  beforeAll(() => buildApp());
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
    await Promise.all(drops.splice(0).map((drop) => drop()));
  });

  function dataDir(): string {
    const sqlite = freshSqliteDirectory();
    drops.push(sqlite.drop);
    return sqlite.dir;
  }

  async function restart(dir: string): Promise<ServerProcess> {
    const server = await startServerProcess({ TOOLSHIELD_DATA_DIR: dir });
    servers.push(server);
    return server;
  }

  it('npm run start:prod: the run in progress finishes, the exit code is 0 and the port is free', async () => {
    const dir = dataDir();
    const service = await startWithNpm('start:prod', { TOOLSHIELD_DATA_DIR: dir });
    const id = await startRun(service.baseUrl, 'slow-web');
    service.child.kill('SIGTERM'); // the npm process, not its group
    const [code, signal] = await service.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(service.output()).toContain('SIGTERM: stopped (no run left in progress).');
    expect(await listening(service.baseUrl)).toBe(false);

    const { status, types } = await runAfterRestart(await restart(dir), id);
    expect(types).not.toContain('run.resumed');
    expect(types.at(-1)).toBe('run.finished');
    expect(status).toBe('completed');
  });

  it('past the grace, the run in progress is left to resume at the next start', async () => {
    const dir = dataDir();
    const service = await startWithNpm('start:prod', {
      TOOLSHIELD_DATA_DIR: dir,
      TOOLSHIELD_SHUTDOWN_GRACE_MS: '0',
    });
    const id = await startRun(service.baseUrl, 'slow-web');
    service.child.kill('SIGTERM');
    const [code] = await service.exited;
    expect(code).toBe(0);
    expect(service.output()).toMatch(
      /SIGTERM: stopped; 1 run\(s\) still in progress after 0 ms resume at the next start\./,
    );
    expect(await listening(service.baseUrl)).toBe(false);

    const { status, types } = await runAfterRestart(await restart(dir), id);
    expect(types).toContain('run.resumed');
    expect(types.at(-1)).toBe('run.finished');
    expect(status).toBe('completed');
  });

  it('Ctrl-C (SIGINT to the whole process group, npm included) stops gracefully too', async () => {
    const dir = dataDir();
    const service = await startWithNpm('start:prod', { TOOLSHIELD_DATA_DIR: dir }, true);
    const id = await startRun(service.baseUrl, 'slow-web');
    process.kill(-(service.child.pid as number), 'SIGINT');
    const [code] = await service.exited;
    expect(code).toBe(0);
    expect(service.output()).toContain('SIGINT: stopped (no run left in progress).');
    expect(service.output()).not.toContain('exiting now');

    expect((await runAfterRestart(await restart(dir), id)).status).toBe('completed');
  });
});
