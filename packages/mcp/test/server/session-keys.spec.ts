import { afterEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpApp } from '../fixtures/mcp-app.js';
import { WeatherTools } from '../fixtures/weather.tools.js';

let app: INestApplication | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await app?.close();
  app = undefined;
});

async function connect(url: URL) {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  clients.push(client);
  return { client, sessionId: transport.sessionId };
}

describe('ToolShieldMcpModule: idempotency keys scoped by the MCP session', () => {
  it("prefixes each call's key with its session's id, so two sessions' calls never share one", async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    const first = await connect(url);
    const second = await connect(url);
    for (const { client } of [first, second, first]) {
      await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    }
    const keys = app.get(WeatherTools).weatherKeys;
    expect(first.sessionId).toBeDefined();
    expect(first.sessionId).not.toBe(second.sessionId);
    expect(keys.map((key) => key?.slice(0, key.lastIndexOf(':')))).toEqual([
      first.sessionId,
      second.sessionId,
      first.sessionId,
    ]);
    expect(new Set(keys).size).toBe(3); // MCP has no tool call id: every call is its own
  });
});
