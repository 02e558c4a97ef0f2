import { afterEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolRegistrar } from '@toolshield/nest';
import { startMcpApp } from '../fixtures/mcp-app.js';
import { waitFor } from '../fixtures/wait-for.js';
import { WeatherTools } from '../fixtures/weather.tools.js';

let app: INestApplication | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await app?.close();
  app = undefined;
});

async function connect(url: URL, onListChanged?: () => void) {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  if (onListChanged)
    client.setNotificationHandler(ToolListChangedNotificationSchema, onListChanged);
  let streamOpened: () => void = () => undefined;
  const notificationStream = new Promise<void>((resolve) => (streamOpened = resolve));
  // Resolves once the server has answered the GET that opens the stream notifications travel on.
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'GET' && response.ok) streamOpened();
    return response;
  };
  const transport = new StreamableHTTPClientTransport(url, { fetch: watching });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, notificationStream };
}

describe('ToolShieldMcpModule over Streamable HTTP (the official client, a real socket)', () => {
  it('lists every tool with its JSON Schema and the annotations derived from its options', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], {
      serverInfo: { name: 'weather', version: '2.0.0' },
    }));
    const { client } = await connect(url);
    expect(client.getServerVersion()).toMatchObject({ name: 'weather', version: '2.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_weather',
      'find_station',
      'wait_for_abort',
    ]);
    expect(tools[0]).toMatchObject({
      description: 'Current weather for a city.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 2, maxLength: 40 } },
        required: ['city'],
      },
      annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
    });
    expect(tools[1]?.annotations).toBeUndefined();
  });

  it('answers tools/call through the executor: results, isError failures with the ToolFailure, unknown tools', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    const { client } = await connect(url);

    const ok = (await client.callTool({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
    })) as CallToolResult;
    expect(ok).toMatchObject({
      isError: false,
      structuredContent: { city: 'Oslo', celsius: 21 },
      content: [{ type: 'text', text: '{"city":"Oslo","celsius":21}' }],
    });

    const failed = (await client.callTool({
      name: 'find_station',
      arguments: {},
    })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('No station near Atlantis.'),
    });
    expect(failed.structuredContent).toMatchObject({
      success: false,
      errorType: 'not_found',
      tool: 'find_station',
    });

    const invalid = (await client.callTool({
      name: 'get_weather',
      arguments: { city: 7 },
    })) as CallToolResult;
    expect(invalid).toMatchObject({
      isError: true,
      structuredContent: { errorType: 'invalid_input' },
    });

    const unknown = (await client.callTool({
      name: 'get_wether',
      arguments: {},
    })) as CallToolResult;
    expect(unknown).toMatchObject({
      isError: true,
      structuredContent: { errorType: 'tool_not_found', didYouMean: ['get_weather'] },
    });
  });

  it('aborts the tool call signal on notifications/cancelled', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    const { client } = await connect(url);
    const tools = app.get(WeatherTools);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await waitFor(() => tools.signals.length === 1);
    controller.abort('user gave up');
    await expect(pending).rejects.toBeDefined();
    await waitFor(() => tools.signals[0]?.aborted);
    expect(tools.signals[0]?.reason).toMatchObject({ type: 'cancelled' });
  });

  it('sends tools/list_changed when tools are registered or removed at run time', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    let changes = 0;
    const { client, notificationStream } = await connect(url, () => (changes += 1));
    await notificationStream;
    const handle = app.get(ToolRegistrar).register({
      name: 'get_tide',
      description: 'Tide times for a harbour.',
      inputSchema: { type: 'object', properties: { harbour: { type: 'string' } } },
      handler: () => ({ high: '06:12' }),
    });
    await waitFor(() => changes === 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('get_tide');
    expect(await client.callTool({ name: 'get_tide', arguments: {} })).toMatchObject({
      structuredContent: { high: '06:12' },
    });
    handle.remove();
    await waitFor(() => changes === 2);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('get_tide');
  });

  it('keeps sessions apart, ends one on DELETE and answers 404 for it afterwards', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], { path: '/tools/mcp' }));
    expect(url.pathname).toBe('/tools/mcp');
    const first = await connect(url);
    const second = await connect(url);
    const sessionId = first.transport.sessionId;
    expect(sessionId).toBeDefined();
    expect(sessionId).not.toBe(second.transport.sessionId);

    await first.transport.terminateSession();
    const after = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId as string,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect((await second.client.listTools()).tools).toHaveLength(3);

    const noSession = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
  });
});
