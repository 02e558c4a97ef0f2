import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../fixtures/test-server.js';

describe('the same tools over MCP at /mcp, with the official client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let client: Client;
  beforeAll(async () => {
    server = await startTestServer();
    client = new Client({ name: 'sample-agent-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('lists every tool of the service with its JSON Schema', async () => {
    const { tools } = await client.listTools();
    const api = await server.request('GET', '/api/tools');
    const names = (api.body as { name: string }[]).map((tool) => tool.name).sort();
    expect(tools.map((tool) => tool.name).sort()).toEqual(names);
    const calculate = tools.find((tool) => tool.name === 'calculate');
    expect(calculate?.inputSchema).toMatchObject({ type: 'object' });
  });

  it('runs a call through the pipeline and returns a failure the model can read as isError', async () => {
    const ok = await client.callTool({ name: 'calculate', arguments: { expression: '6 * 7' } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.stringify(ok.content)).toContain('42');
    const bad = await client.callTool({ name: 'calculate', arguments: { expression: '6 *' } });
    expect(bad).toMatchObject({
      isError: true,
      structuredContent: { success: false, errorType: 'invalid_input' },
    });
    const unknown = await client.callTool({ name: 'calcluate', arguments: {} });
    expect(unknown).toMatchObject({
      isError: true,
      structuredContent: { errorType: 'tool_not_found', didYouMean: ['calculate'] },
    });
  });
});
