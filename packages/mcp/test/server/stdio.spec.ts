import { afterEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tsFixtureArgs } from '../fixtures/child-node.js';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('serveToolsOverStdio (the official client, a child process)', () => {
  it('lists and calls the tools of an app started as an MCP stdio server', async () => {
    client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: tsFixtureArgs('./stdio-server.ts'),
        stderr: 'inherit',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_weather',
      'find_station',
      'wait_for_abort',
    ]);
    const ok = (await client.callTool({
      name: 'get_weather',
      arguments: { city: 'Rome' },
    })) as CallToolResult;
    expect(ok.structuredContent).toEqual({ city: 'Rome', celsius: 21 });
    const failed = (await client.callTool({
      name: 'find_station',
      arguments: {},
    })) as CallToolResult;
    expect(failed).toMatchObject({ isError: true, structuredContent: { errorType: 'not_found' } });
  });
});
