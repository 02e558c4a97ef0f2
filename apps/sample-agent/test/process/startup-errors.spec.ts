import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { runToExit, type ProcessExit } from '../fixtures/run-to-exit.js';
import { buildApp } from '../fixtures/server-process.js';
import { freshSqliteDirectory, TEST_DATABASE_URL } from '../fixtures/stores.js';

jest.setTimeout(120_000);

/** A port on 127.0.0.1 with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `node dist/serve.js` with `env` (on `node`, default this one) and waits for its exit. */
function serve(env: Record<string, string | undefined>, node = process.execPath) {
  const sqlite = freshSqliteDirectory();
  return runToExit(node, ['dist/serve.js'], {
    PORT: '0',
    DATABASE_URL: undefined,
    TOOLSHIELD_STORE: undefined,
    TOOLSHIELD_DATA_DIR: sqlite.dir,
    ...env,
  }).finally(sqlite.drop);
}

/** The process failed with exit code 1 and one line on stderr, no stack. */
function expectOneLine(exit: ProcessExit, message: RegExp): void {
  expect({ code: exit.code, stdout: exit.stdout }).toEqual({ code: 1, stdout: '' });
  const lines = exit.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^toolshield sample agent: /);
  expect(lines[0]).toMatch(message);
  expect(exit.stderr).not.toMatch(/^\s+at /m);
}

/** Node 20, without node:sqlite, if this machine has it (the system node here is 20). */
const NODE_20 = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (path) =>
    existsSync(path) &&
    execFileSync(path, ['-p', 'process.versions.node']).toString().startsWith('20.'),
);

describe('the service refuses to start with one line saying what to do', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    buildApp();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => busy.close(resolve)));

  it.each(['abc', '70000', '-1', '3000.5'])('PORT=%s', async (port) => {
    expectOneLine(
      await serve({ PORT: port }),
      new RegExp(
        `PORT must be a whole number from 0 to 65535 \\(0 picks a free port\\), got "${port.replace('.', '\\.')}"\\.$`,
      ),
    );
  });

  it('a port already in use', async () => {
    expectOneLine(
      await serve({ PORT: String(busyPort) }),
      new RegExp(
        `Port ${busyPort} on 127\\.0\\.0\\.1 is already in use: .*set PORT to another port`,
      ),
    );
  });

  it('a DATABASE_URL that is not PostgreSQL, without printing its password', async () => {
    const exit = await serve({ DATABASE_URL: 'mysql://app:s3cret-pw@127.0.0.1:3306/toolshield' });
    expectOneLine(exit, /DATABASE_URL must be a PostgreSQL URL .*got a mysql:\/\/ URL/);
    expect(exit.stderr).not.toContain('s3cret-pw');
    expectOneLine(await serve({ DATABASE_URL: 'not a url' }), /got no URL/);
  });

  it('a database server that cannot be reached', async () => {
    const port = await closedPort();
    expectOneLine(
      await serve({ DATABASE_URL: `postgres://app:s3cret-pw@127.0.0.1:${port}/toolshield` }),
      new RegExp(
        `Cannot reach the run store \\(PostgreSQL at 127\\.0\\.0\\.1:${port}\\): ECONNREFUSED; start the database server or fix DATABASE_URL\\.$`,
      ),
    );
  });

  (TEST_DATABASE_URL ? it : it.skip)('a PostgreSQL database that does not exist', async () => {
    const url = new URL(TEST_DATABASE_URL as string);
    url.pathname = '/toolshield_no_such_database';
    expectOneLine(
      await serve({ DATABASE_URL: url.toString() }),
      /Cannot open the run store \(PostgreSQL at .*\): the database does not exist \(.*\); fix DATABASE_URL\.$/,
    );
  });

  it('an unknown TOOLSHIELD_STORE', async () => {
    expectOneLine(
      await serve({ TOOLSHIELD_STORE: 'postgres' }),
      /TOOLSHIELD_STORE must be "memory" or unset/,
    );
  });

  (NODE_20 ? describe : describe.skip)('on Node 20', () => {
    it('with PostgreSQL configured, gets past node:sqlite to the real problem', async () => {
      const port = await closedPort();
      expectOneLine(
        await serve({ DATABASE_URL: `postgres://app@127.0.0.1:${port}/toolshield` }, NODE_20),
        /Cannot reach the run store .*ECONNREFUSED/,
      );
    });

    it('with SQLite, says it needs a newer Node', async () => {
      expectOneLine(
        await serve({}, NODE_20),
        /SQLite needs node:sqlite \(Node 22\.5 or later\) and this is Node 20\.\d+\.\d+: run with Node 24/,
      );
    });
  });
});
