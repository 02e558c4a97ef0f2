import { Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type RequestOptions,
} from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  NetworkError,
  classifyError,
  sleep,
  type Clock,
  type ToolCallContext,
} from '@toolshield/core';
import {
  ToolNotFoundError,
  backoffDelay,
  resolveBackoff,
  suggestToolNames,
  type Backoff,
} from '@toolshield/core/internal';
import type { RegisteredToolHandle, ToolCircuitBreakers, ToolRegistrar } from '@toolshield/nest';
import { createClientTransport } from './mcp-client-transport.js';
import type { McpClientOptions } from './mcp-client-options.interface.js';
import { mcpFailureOf, mcpResultFailure, textOf } from './mcp-failure.js';
import { localToolName, remoteToolRegistration } from './remote-tool-registration.js';
import { MCP_PACKAGE_VERSION } from '../package-version.js';

/**
 * Where a remote server stands: `connecting` (first attempt), `connected`, `reconnecting`
 * (it dropped or never came up; attempts continue with backoff), `closed` (disconnected).
 *
 * @publicApi
 */
export type McpConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** What a remote server connection needs from the application. @internal */
export interface McpRemoteServerDeps {
  readonly registrar: ToolRegistrar;
  readonly breakers: ToolCircuitBreakers;
  readonly clock: Clock;
  readonly random: () => number;
}

interface RemoteTool {
  readonly remoteName: string;
  /** The listed definition, to notice when the server changes it. */
  readonly listed: string;
  readonly handle: RegisteredToolHandle;
}

const CLIENT_INFO = { name: 'toolshield', version: MCP_PACKAGE_VERSION };
const DEFAULT_RECONNECT = { baseMs: 250, capMs: 30_000, jitter: 'full' } as const;

/**
 * One remote MCP server: its connection, its tools registered under the prefix, and the
 * reconnection loop. While it is down its tools stay registered and fail with `network`
 * (so its breaker opens and fails them fast); when it is back, the tool list is read again
 * and the breaker closed. The tool list also follows the server's `list_changed`.
 *
 * @publicApi
 */
export class McpRemoteServer {
  private readonly logger: Logger;
  private readonly backoff: Backoff;
  private readonly lifetime = new AbortController();
  private readonly tools = new Map<string, RemoteTool>();
  private client: Client | undefined;
  private currentState: McpConnectionState = 'connecting';
  private reconnecting = false;

  /** McpClients makes one per server. @internal */
  constructor(
    readonly options: McpClientOptions,
    private readonly deps: McpRemoteServerDeps,
  ) {
    this.logger = new Logger(`ToolShieldMcp:${options.name}`);
    this.backoff = resolveBackoff({
      ...DEFAULT_RECONNECT,
      random: deps.random,
      ...options.reconnect,
    });
  }

  get name(): string {
    return this.options.name;
  }

  get state(): McpConnectionState {
    return this.currentState;
  }

  /** The local names of the server's tools, as the model sees them. */
  toolNames(): string[] {
    return [...this.tools.keys()];
  }

  /** Connects; on failure keeps trying in the background (see {@link state}). @internal */
  async start(): Promise<void> {
    try {
      await this.open();
    } catch (error) {
      this.logger.warn(`Could not connect (${String(error)}); retrying in the background.`);
      this.dropped(undefined);
    }
  }

  /** Disconnects for good and removes the server's tools. */
  async close(): Promise<void> {
    this.currentState = 'closed';
    this.lifetime.abort();
    for (const tool of this.tools.values()) tool.handle.remove();
    this.tools.clear();
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onclose = () => this.dropped(client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refresh(client).catch((error: unknown) => {
        this.logger.warn(`Could not read the changed tool list: ${String(error)}`);
      });
    });
    await client.connect(createClientTransport(this.options), this.requestOptions());
    if (this.currentState === 'closed') {
      await client.close();
      return;
    }
    this.client = client;
    try {
      await this.refresh(client);
    } catch (error) {
      this.dropped(client);
      throw error;
    }
    // Back: its tools need not wait for the breaker's reset timeout.
    if (this.deps.breakers.find(this.name)) await this.deps.breakers.close(this.name);
    this.currentState = 'connected';
  }

  /** Reads the server's tool list and brings the registered tools in line with it. */
  private async refresh(client: Client): Promise<void> {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, this.requestOptions());
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    if (client !== this.client) return;

    const wanted = new Map<string, Tool>();
    for (const tool of listed) {
      const name = localToolName(this.options, tool.name);
      if (name === undefined)
        this.logger.warn(`Skipped tool "${tool.name}": its name is too long.`);
      else wanted.set(name, tool);
    }
    for (const [name, tool] of this.tools) {
      if (wanted.get(name) && JSON.stringify(wanted.get(name)) === tool.listed) continue;
      tool.handle.remove();
      this.tools.delete(name);
    }
    for (const [name, tool] of wanted) {
      if (!this.tools.has(name)) this.register(name, tool);
    }
  }

  private register(name: string, tool: Tool): void {
    const handler = (args: unknown, call: ToolCallContext) =>
      this.call(name, tool.name, args, call);
    try {
      const handle = this.deps.registrar.register(
        remoteToolRegistration(this.options, tool, name, handler),
      );
      this.tools.set(name, { remoteName: tool.name, listed: JSON.stringify(tool), handle });
    } catch (error) {
      this.logger.warn(`Skipped tool "${tool.name}": ${String(error)}`);
    }
  }

  private async call(
    name: string,
    remoteName: string,
    args: unknown,
    call: ToolCallContext,
  ): Promise<unknown> {
    const client = this.client;
    if (!client) {
      throw new NetworkError(`MCP server "${this.name}" is not connected; reconnecting.`, {
        metadata: { mcpServer: this.name },
      });
    }
    let result: CallToolResult;
    try {
      result = (await client.callTool(
        { name: remoteName, arguments: args as Record<string, unknown> },
        undefined,
        { ...this.requestOptions(), signal: call.signal },
      )) as CallToolResult;
    } catch (error) {
      if (call.signal.aborted) throw error;
      throw await this.failure(error, name, client);
    }
    if (result.isError) {
      const failure = mcpResultFailure(
        result,
        this.name,
        (remote) => localToolName(this.options, remote) ?? remote,
      );
      throw failure.kind === 'error'
        ? failure.error
        : await this.unknownTool(name, failure.message, client);
    }
    return outputOf(result);
  }

  private async failure(error: unknown, name: string, client: Client): Promise<Error> {
    const failure = mcpFailureOf(error, this.name);
    if (failure?.kind === 'unknown_tool') return this.unknownTool(name, failure.message, client);
    const toolError = failure?.error ?? classifyError(error);
    if (toolError.type === 'network') this.dropped(client);
    return toolError;
  }

  /** The tool is gone from the server: re-read its list, so the model gets the current one. */
  private async unknownTool(name: string, message: string, client: Client): Promise<Error> {
    await this.refresh(client).catch(() => undefined);
    const availableTools = this.toolNames().filter((tool) => tool !== name);
    return new ToolNotFoundError(
      `MCP server "${this.name}" has no tool "${name}" any more: ${message}`,
      {
        availableTools,
        didYouMean: suggestToolNames(name, availableTools),
        metadata: { mcpServer: this.name },
      },
    );
  }

  /** The connection broke (or never came up): reconnect with backoff, once at a time. */
  private dropped(client: Client | undefined): void {
    if (client !== this.client || this.currentState === 'closed') return;
    this.client = undefined;
    void client?.close().catch(() => undefined);
    this.currentState = 'reconnecting';
    if (!this.reconnecting) void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    this.reconnecting = true;
    let previous: number | undefined;
    for (let attempt = 1; this.currentState === 'reconnecting'; attempt++) {
      previous = backoffDelay(this.backoff, attempt, previous);
      try {
        await sleep(this.deps.clock, previous, this.lifetime.signal);
        await this.open();
        this.logger.log(`Reconnected after ${attempt} attempt(s).`);
      } catch (error) {
        if (this.lifetime.signal.aborted) break;
        this.logger.debug(`Reconnection attempt ${attempt} failed: ${String(error)}`);
      }
    }
    this.reconnecting = false;
  }

  private requestOptions(): RequestOptions {
    return {
      timeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC,
      signal: this.lifetime.signal,
    };
  }
}

/** A result's output: its structured content, else its text, else its content blocks. */
function outputOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  return result.content.every((part) => part.type === 'text') ? textOf(result) : result.content;
}
