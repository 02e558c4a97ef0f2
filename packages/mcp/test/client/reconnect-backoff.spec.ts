import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClientApp } from '../fixtures/client-app.js';
import { waitFor } from '../fixtures/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'toolshield-mcp-backoff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let client: Awaited<ReturnType<typeof startClientApp>> | undefined;
afterEach(async () => {
  await client?.app.close();
  client = undefined;
});

describe('reconnecting to a server that is down', () => {
  it('waits out an exponential backoff on the module clock between attempts (virtual time)', async () => {
    const clock = new VirtualClock();
    client = await startClientApp([], clock);

    // A stdio "server" that notes each start in a file and exits at once.
    const starts = join(dir, 'starts');
    const attempts = () => (existsSync(starts) ? readFileSync(starts, 'utf8').length : 0);
    const server = await client.clients.connect({
      name: 'down',
      command: process.execPath,
      args: ['-e', `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x')`],
      stderr: 'ignore',
      reconnect: { baseMs: 1_000, capMs: 4_000, jitter: 'none' },
    });
    expect(server.state).toBe('reconnecting');
    expect(attempts()).toBe(1);

    for (const [delay, expected] of [
      [1_000, 2],
      [2_000, 3],
      [4_000, 4],
      [4_000, 5],
    ] as const) {
      await waitFor(() => clock.pendingTimers === 1);
      await clock.advanceBy(delay - 1);
      expect(attempts()).toBe(expected - 1);
      await clock.advanceBy(1);
      await waitFor(() => attempts() === expected);
    }
    expect(server.state).toBe('reconnecting');
    expect(server.toolNames()).toEqual([]);
  });
});
