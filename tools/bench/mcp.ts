/**
 * MCP round trips: one `tools/call` from the SDK's `Client` until its result, through
 * toolshield's MCP server module against the SDK's bare servers serving the same tool body,
 * over the SDK's in-memory transport (the protocol and the server alone) and over Streamable
 * HTTP on 127.0.0.1 (a real socket, as deployed).
 *
 * Method: every row makes CALLS sequential awaited calls per sample after WARMUP calls; the
 * rows run ROUNDS times in a rotated order; reported per call: the median over rounds and its
 * min–max, and the ratio to the bare low-level SDK server of the same transport, taken within
 * each round, median over rounds.
 */
import 'reflect-metadata';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObjectSchema } from '@toolshield/core';
import { Tool, ToolArgs, ToolShieldModule } from '@toolshield/nest';
import { McpToolServer, ToolShieldMcpModule } from '@toolshield/mcp';
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { lookupBody, type LookupArgs } from './fixtures.js';
import { max, median, min, ratio, us } from './stats.js';

const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 5);
const CALLS = { memory: Number(process.env.BENCH_MCP_CALLS ?? 1_000), http: 200 };
const WARMUP = 200;

const INPUT_SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const DESCRIPTION = 'Benchmark tool.';

@Injectable()
class McpBenchTools {
  @Tool({ name: 'lookup', description: DESCRIPTION, inputSchema: INPUT_SCHEMA })
  async lookup(@ToolArgs() args: LookupArgs) {
    return lookupBody(args);
  }
}

@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldMcpModule.forRoot()],
  providers: [McpBenchTools],
})
class McpBenchModule {}

/** The SDK's low-level Server answering the same tool, as a hand-written server would. */
function bareServer(): Server {
  const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'lookup', description: DESCRIPTION, inputSchema: INPUT_SCHEMA }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const output = await lookupBody(request.params.arguments as unknown as LookupArgs);
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  });
  return server;
}

/** The SDK's high-level McpServer with the tool registered (zod input schema, as its docs show). */
function sdkMcpServer(): McpServer {
  const server = new McpServer({ name: 'mcp-server', version: '1.0.0' });
  server.registerTool(
    'lookup',
    { description: DESCRIPTION, inputSchema: { city: z.string() } },
    async (args) => {
      const output = await lookupBody(args);
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        structuredContent: output,
      };
    },
  );
  return server;
}

async function connectedClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function inMemory(connect: (server: Transport) => Promise<unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connect(serverSide);
  return connectedClient(clientSide);
}

/** The bare server on plain node:http with the SDK's stateful Streamable HTTP transport. */
async function bareHttp(): Promise<{ url: URL; server: HttpServer }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      await bareServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), server };
}

interface McpRow {
  readonly id: string;
  readonly label: string;
  readonly transport: 'memory' | 'http';
  readonly client: Client;
}

/** One measure of a row: median over rounds, range of the round values, ratio to the bare row. */
export interface McpFigure {
  readonly p50: number;
  readonly min: number;
  readonly max: number;
  /** Within-round ratio to the bare low-level server on the same transport, median over rounds. */
  readonly ratio: number;
}

export interface McpRowResult {
  readonly id: string;
  readonly label: string;
  readonly transport: 'memory' | 'http';
  /** µs of wall time per round trip. */
  readonly wall: McpFigure;
  /** µs of CPU time (client and server, one process) per round trip. */
  readonly cpu: McpFigure;
}

/** Wall time and CPU time (this process: client and server) per call, in µs. */
async function timeCalls(client: Client, calls: number): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = (await client.callTool({
      name: 'lookup',
      arguments: { city: 'Paris' },
    })) as CallToolResult;
    if (result.isError) throw new Error(`The bench tool failed: ${JSON.stringify(result.content)}`);
  }
  const wall = ((performance.now() - started) * 1000) / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

/** Runs the MCP rows; returns them with a Markdown table. */
export async function runMcpBench(
  log: (line: string) => void,
): Promise<{ rows: McpRowResult[]; markdown: string }> {
  const app: INestApplication = await NestFactory.create(McpBenchModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const bare = await bareHttp();
  const moduleServer = app.get(McpToolServer);

  const rows: McpRow[] = [
    {
      id: 'memory-bare',
      label: 'SDK low-level Server, in-memory',
      transport: 'memory',
      client: await inMemory((t) => bareServer().connect(t)),
    },
    {
      id: 'memory-mcpserver',
      label: 'SDK McpServer (zod schema), in-memory',
      transport: 'memory',
      client: await inMemory((t) => sdkMcpServer().connect(t)),
    },
    {
      id: 'memory-toolshield',
      label: 'toolshield McpToolServer, in-memory',
      transport: 'memory',
      client: await inMemory((t) => moduleServer.connect(t)),
    },
    {
      id: 'http-bare',
      label: 'SDK low-level Server, Streamable HTTP (node:http)',
      transport: 'http',
      client: await connectedClient(new StreamableHTTPClientTransport(bare.url)),
    },
    {
      id: 'http-toolshield',
      label: 'toolshield module, Streamable HTTP (Nest + Express)',
      transport: 'http',
      client: await connectedClient(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
      ),
    },
  ];
  try {
    for (const row of rows) await timeCalls(row.client, WARMUP);
    const rounds: Map<string, { wall: number; cpu: number }>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      log(`mcp: round ${round + 1}/${ROUNDS}`);
      const measured = new Map<string, { wall: number; cpu: number }>();
      for (let index = 0; index < rows.length; index++) {
        const row = rows[(index + round) % rows.length] as McpRow;
        measured.set(row.id, await timeCalls(row.client, CALLS[row.transport]));
      }
      rounds.push(measured);
    }
    const figure = (row: McpRow, measure: 'wall' | 'cpu'): McpFigure => {
      const values = rounds.map((round) => round.get(row.id)?.[measure] as number);
      const bare = rounds.map((round) => round.get(`${row.transport}-bare`)?.[measure] as number);
      return {
        p50: median(values),
        min: min(values),
        max: max(values),
        ratio: median(values.map((value, index) => value / (bare[index] as number))),
      };
    };
    const results = rows.map((row): McpRowResult => ({
      id: row.id,
      label: row.label,
      transport: row.transport,
      wall: figure(row, 'wall'),
      cpu: figure(row, 'cpu'),
    }));
    return { rows: results, markdown: mcpTable(results) };
  } finally {
    await Promise.allSettled(rows.map((row) => row.client.close()));
    await app.close();
    await new Promise((resolve) => bare.server.close(resolve));
  }
}

function mcpTable(rows: readonly McpRowResult[]): string {
  const cells = (figure: McpFigure) =>
    `${us(figure.p50)} | ${us(figure.min)}–${us(figure.max)} | ${ratio(figure.ratio)}`;
  return [
    `MCP round trips (tools/call, Client → server → Client, one process), ${ROUNDS} rounds of ${CALLS.memory} (in-memory) / ${CALLS.http} (HTTP) calls; µs per call:`,
    '',
    '| Server | CPU | range | vs bare | wall | range | vs bare |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.label} | ${cells(row.cpu)} | ${cells(row.wall)} |`),
  ].join('\n');
}
