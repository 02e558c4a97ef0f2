import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutor, ToolRegistry } from '@toolshield/nest';
import type { Subscription } from 'rxjs';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import { askClientToApprove, isPendingApproval, withResolutionHint } from './mcp-approval.js';
import { callToolResult, listedTool } from './mcp-tool-rendering.js';
import { MCP_PACKAGE_VERSION } from '../package-version.js';

const DEFAULT_SERVER_INFO = { name: 'toolshield', version: MCP_PACKAGE_VERSION };

/**
 * Serves the application's toolshield tools over MCP, one SDK `Server` per connection
 * (an HTTP session, stdio, or any transport you connect): `tools/list` lists every tool
 * in the `ToolRegistry` with its JSON Schema and annotations, `tools/call` runs through
 * `ToolExecutor` (so every policy applies) and answers with a `CallToolResult`, failures
 * included as `isError` results, and `notifications/cancelled` aborts the call. When tools
 * are registered or removed, every connection gets `notifications/tools/list_changed`. A call
 * that needs approval (`needsApproval`) is put to the client's user through elicitation when
 * the client supports it (accepted, it runs once; declined, the model reads the denial);
 * otherwise its `isError` result says the approval is pending and how it is resolved.
 *
 * @example
 * ```ts
 * await app.get(McpToolServer).connect(new StdioServerTransport());
 * ```
 * @publicApi
 */
@Injectable()
export class McpToolServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ToolShieldMcp');
  private readonly servers = new Set<Server>();
  private changes?: Subscription;
  private notifyQueued = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly executor: ToolExecutor,
    @InjectToolShieldMcpOptions() private readonly options: ToolShieldMcpModuleOptions,
  ) {}

  onModuleInit(): void {
    this.changes = this.registry.changes$.subscribe(() => this.queueListChanged());
  }

  /** Serves the tools on `transport` until it closes. */
  async connect(transport: Transport): Promise<Server> {
    const server = this.createServer();
    await server.connect(transport);
    return server;
  }

  /**
   * A new SDK `Server` answering `tools/list` and `tools/call` from the registry; it is
   * notified of tool-list changes until it closes. Connect it to a transport yourself, or
   * use {@link connect}.
   */
  createServer(): Server {
    const server = new Server(this.options.serverInfo ?? DEFAULT_SERVER_INFO, {
      capabilities: { tools: { listChanged: true } },
      ...(this.options.instructions === undefined
        ? {}
        : { instructions: this.options.instructions }),
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.registry.names().flatMap((name) => {
        const tool = this.registry.get(name);
        return tool ? [listedTool(tool)] : [];
      }),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const outcome = await this.executor.execute(
        { name: request.params.name, arguments: request.params.arguments ?? {} },
        {
          signal: extra.signal,
          // The session scopes the call's idempotency key (`<sessionId>:<callId>`).
          conversationId: extra.sessionId,
          metadata: { mcpSessionId: extra.sessionId, mcpRequestId: extra.requestId },
        },
      );
      if (!isPendingApproval(outcome)) return callToolResult(outcome, this.options);
      const decided = await askClientToApprove(server, this.executor, outcome, {
        signal: extra.signal,
      });
      return decided === undefined
        ? withResolutionHint(callToolResult(outcome, this.options), outcome)
        : callToolResult(decided, this.options);
    });
    this.servers.add(server);
    server.onclose = () => this.servers.delete(server);
    return server;
  }

  /** Closes every connection (their transports end with them). */
  async onApplicationShutdown(): Promise<void> {
    this.changes?.unsubscribe();
    await Promise.allSettled([...this.servers].map((server) => server.close()));
    this.servers.clear();
  }

  /** One notification per burst of changes (a remote server's tools arrive together). */
  private queueListChanged(): void {
    if (this.notifyQueued || this.servers.size === 0) return;
    this.notifyQueued = true;
    queueMicrotask(() => {
      this.notifyQueued = false;
      for (const server of this.servers) {
        server.sendToolListChanged().catch((error: unknown) => {
          this.logger.debug(`Could not send tools/list_changed: ${String(error)}`);
        });
      }
    });
  }
}
