import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClientApp } from '../fixtures/client-app.js';
import { REMOTE_SERVER } from '../fixtures/remote-process.js';
import { waitFor } from '../fixtures/wait-for.js';

type ClientApp = Awaited<ReturnType<typeof startClientApp>>;

let client: ClientApp | undefined;
const dir = mkdtempSync(join(tmpdir(), 'toolshield-mcp-'));
afterEach(async () => {
  await client?.app.close();
  client = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('McpClients against a real MCP server over stdio', () => {
  it('connects at run time, respawns a killed server process, and disconnects', async () => {
    client = await startClientApp();
    const pidFile = join(dir, 'server.pid');
    const server = await client.clients.connect({
      name: 'local',
      command: process.execPath,
      args: [REMOTE_SERVER, '--stdio', '--pid-file', pidFile],
      reconnect: { baseMs: 20, capMs: 100 },
    });
    expect(server.state).toBe('connected');
    expect(server.toolNames()).toContain('local__echo');
    expect(await client.call('local__echo', { text: 'one' })).toMatchObject({ success: true });

    const firstPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(firstPid, 'SIGKILL');
    await waitFor(() => server.state === 'reconnecting');
    await waitFor(
      () => server.state === 'connected' && Number(readFileSync(pidFile, 'utf8')) !== firstPid,
    );
    expect(await client.call('local__echo', { text: 'two' })).toMatchObject({
      success: true,
      output: { echoed: { text: 'two' } },
    });

    expect(await client.clients.disconnect('local')).toBe(true);
    expect(server.state).toBe('closed');
    expect(client.registry.names()).toEqual([]);
  });

  it('refuses options it cannot use, saying why', async () => {
    client = await startClientApp();
    await expect(
      client.clients.connect({ name: 'bad name', url: 'http://127.0.0.1:1/mcp' }),
    ).rejects.toThrow('is not portable');
    await expect(client.clients.connect({ name: 'nowhere' })).rejects.toThrow('needs a url');
  });
});
