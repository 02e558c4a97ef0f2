import { afterEach, describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { startClientApp } from '../fixtures/client-app.js';
import { startRemoteHttpServer, type RemoteHttpServer } from '../fixtures/remote-process.js';
import { waitFor } from '../fixtures/wait-for.js';

type ClientApp = Awaited<ReturnType<typeof startClientApp>>;

let remote: RemoteHttpServer | undefined;
let client: ClientApp | undefined;
afterEach(async () => {
  await client?.app.close();
  await remote?.kill();
  client = remote = undefined;
});

const quick = {
  reconnect: { baseMs: 20, capMs: 100 },
  retry: { backoff: { baseMs: 10, capMs: 20 } },
};

describe('McpClients against a real MCP server over Streamable HTTP', () => {
  it('registers the server tools under its prefix, schemas and hints included, and calls them', async () => {
    remote = await startRemoteHttpServer();
    client = await startClientApp([{ name: 'remote', url: remote.url, ...quick }]);
    expect(client.registry.names()).toContain('remote__echo');
    expect(client.registry.get('remote__echo')).toMatchObject({
      definition: {
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        annotations: { readOnlyHint: true },
      },
      options: { idempotent: true, annotations: { readOnlyHint: true } },
    });
    expect(client.registry.get('remote__broken')?.options.idempotent).toBe(false);
    const echoed = (await client.call('remote__echo', { text: 'hi' })) as ToolResult;
    expect(echoed).toMatchObject({ success: true, output: { echoed: { text: 'hi' } } });
    expect(client.events.map((event) => event.type)).toEqual(['call.started', 'call.succeeded']);
  });

  it('maps isError results, invalid params and unknown tools into the taxonomy', async () => {
    remote = await startRemoteHttpServer();
    client = await startClientApp([
      { name: 'remote', url: remote.url, breaker: { volumeThreshold: 2 }, ...quick },
    ]);
    for (let i = 0; i < 3; i++) {
      const broken = (await client.call('remote__broken')) as ToolFailure;
      expect(broken).toMatchObject({
        errorType: 'internal',
        error: 'The database is down.',
        retryCount: 0,
        metadata: { mcpServer: 'remote' },
      });
    }
    // the server answered each time: its breaker did not count those failures
    expect(await client.call('remote__echo')).toMatchObject({ success: true });

    const invalid = (await client.call('remote__strict', { count: 'three' })) as ToolFailure;
    expect(invalid).toMatchObject({ errorType: 'invalid_input', error: 'count must be a number.' });

    await client.call('remote__forget', { name: 'doomed', silent: true });
    const unknown = (await client.call('remote__doomed')) as ToolFailure;
    expect(unknown.errorType).toBe('tool_not_found');
    expect(unknown.availableTools).toContain('remote__echo');
    expect(unknown.availableTools).not.toContain('remote__doomed');
    expect(client.registry.names()).not.toContain('remote__doomed');
  });

  it('times out hanging calls, retrying only the tools marked idempotent', async () => {
    remote = await startRemoteHttpServer();
    client = await startClientApp([
      { name: 'remote', url: remote.url, timeoutMs: 300, idempotent: ['hang'], ...quick },
      {
        name: 'sdk',
        url: remote.url,
        timeoutMs: false,
        requestTimeoutMs: 200,
        breaker: false,
        ...quick,
      },
    ]);
    expect(await client.call('remote__slow_once')).toMatchObject({
      success: true,
      output: 'done',
      metadata: { attempts: 2 },
    });
    expect(await client.call('remote__slow_once_unsafe')).toMatchObject({
      errorType: 'timeout',
      retryCount: 0,
      retryMax: 0,
    });
    expect(await client.call('remote__hang')).toMatchObject({
      errorType: 'timeout',
      retryCount: 2,
    });
    // no toolshield timeout: the SDK's request timeout (McpError RequestTimeout) ends it
    expect(await client.call('sdk__hang')).toMatchObject({ errorType: 'timeout', retryCount: 0 });
  });

  it('follows the server list_changed notifications', async () => {
    remote = await startRemoteHttpServer();
    client = await startClientApp([{ name: 'remote', url: remote.url, ...quick }]);
    await client.call('remote__learn');
    await waitFor(() => client?.registry.names().includes('remote__extra'));
    expect(await client.call('remote__extra')).toMatchObject({ success: true, output: 'ok' });
  });

  it('fails calls with network while the server is down, opens its breaker, and comes back with it', async () => {
    remote = await startRemoteHttpServer();
    const { port, url } = remote;
    client = await startClientApp([
      {
        name: 'remote',
        url,
        breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
        idempotent: false,
        ...quick,
      },
    ]);
    expect(await client.call('remote__echo')).toMatchObject({ success: true });
    await remote.kill();

    const refused = (await client.call('remote__echo')) as ToolFailure;
    expect(refused.errorType).toBe('network');
    await client.call('remote__echo');
    const fast = (await client.call('remote__broken')) as ToolFailure;
    expect(fast).toMatchObject({ errorType: 'circuit_open' });
    expect(client.clients.get('remote')?.state).toBe('reconnecting');

    remote = await startRemoteHttpServer(port);
    await waitFor(() => client?.clients.get('remote')?.state === 'connected');
    expect(await client.call('remote__echo', { text: 'back' })).toMatchObject({
      success: true,
      output: { echoed: { text: 'back' } },
    });
  });
});
