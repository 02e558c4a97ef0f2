import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolServer } from './mcp-tool-server.js';

const SESSION_HEADER = 'mcp-session-id';

/**
 * The stateful sessions of the Streamable HTTP endpoint, keyed by the `mcp-session-id`
 * header: an `initialize` POST without the header opens one (its own transport and SDK
 * server), later requests carrying the header go to it, `DELETE` ends it. A request naming
 * an unknown (ended, or from before a restart) session gets 404, which tells clients to
 * initialise again.
 *
 * @internal
 */
export class McpHttpSessions {
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  constructor(
    private readonly tools: McpToolServer,
    private readonly transportOptions: { readonly enableJsonResponse?: boolean } = {},
  ) {}

  /** The open sessions' ids. */
  ids(): string[] {
    return [...this.sessions.keys()];
  }

  /** Handles one request to the endpoint; `body` is the JSON a body parser already read. */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const id = request.headers[SESSION_HEADER];
    if (typeof id === 'string') {
      const transport = this.sessions.get(id);
      if (transport) return transport.handleRequest(request, response, body);
      return reject(response, 404, -32001, 'Session not found');
    }
    if (request.method === 'POST' && isInitializeRequest(body)) {
      const transport = this.open();
      await this.tools.connect(transport);
      return transport.handleRequest(request, response, body);
    }
    return reject(response, 400, -32000, 'Bad Request: No valid session ID provided');
  }

  /** Ends every session. */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((transport) => transport.close()));
  }

  private open(): StreamableHTTPServerTransport {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...this.transportOptions,
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, transport),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    return transport;
  }
}

function reject(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
