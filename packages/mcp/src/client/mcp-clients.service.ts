import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Clock } from '@toolshield/core';
import {
  TOOLSHIELD_CLOCK,
  TOOLSHIELD_RANDOM,
  ToolCircuitBreakers,
  ToolRegistrar,
} from '@toolshield/nest';
import { InjectToolShieldMcpOptions } from '../inject-mcp-options.decorator.js';
import type { ToolShieldMcpModuleOptions } from '../mcp-module-options.interface.js';
import type { McpClientOptions } from './mcp-client-options.interface.js';
import { McpRemoteServer } from './mcp-remote-server.js';

const PORTABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The remote MCP servers whose tools the application uses as toolshield tools: those of
 * `ToolShieldMcpModule.forRoot({ clients })`, connected at startup, and any you connect at
 * run time. A server that cannot be reached is retried in the background; its tools appear
 * once it answers.
 *
 * @example
 * ```ts
 * const github = await clients.connect({ name: 'github', url: 'https://mcp.example/github', idempotent: ['search'] });
 * github.toolNames(); // ['github__search', 'github__create_issue', ...]
 * await clients.disconnect('github');
 * ```
 * @publicApi
 */
@Injectable()
export class McpClients implements OnModuleInit, OnApplicationShutdown {
  private readonly servers = new Map<string, McpRemoteServer>();

  constructor(
    private readonly registrar: ToolRegistrar,
    private readonly breakers: ToolCircuitBreakers,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @Inject(TOOLSHIELD_RANDOM) private readonly random: () => number,
    @InjectToolShieldMcpOptions() private readonly options: ToolShieldMcpModuleOptions,
  ) {}

  /** Connects the servers of the module options (before the tools are built). */
  async onModuleInit(): Promise<void> {
    await Promise.all((this.options.clients ?? []).map((client) => this.connect(client)));
  }

  /**
   * Connects to a remote server and registers its tools. Resolves after the first attempt:
   * connected, or `reconnecting` in the background.
   *
   * @throws Error for a name that is taken or not portable, or options without `url` or `command`.
   */
  async connect(options: McpClientOptions): Promise<McpRemoteServer> {
    if (!PORTABLE_NAME.test(options.name))
      throw new Error(
        `MCP client name "${options.name}" is not portable: use 1-64 of A-Z, a-z, 0-9, "_" and "-".`,
      );
    if (this.servers.has(options.name))
      throw new Error(`An MCP client named "${options.name}" is already connected.`);
    if (options.url === undefined && options.command === undefined)
      throw new Error(
        `MCP client "${options.name}" needs a url (Streamable HTTP) or a command (stdio).`,
      );
    const server = new McpRemoteServer(options, {
      registrar: this.registrar,
      breakers: this.breakers,
      clock: this.clock,
      random: this.random,
    });
    this.servers.set(options.name, server);
    await server.start();
    return server;
  }

  /** The connection to the server of this name. */
  get(name: string): McpRemoteServer | undefined {
    return this.servers.get(name);
  }

  /** Every connected (or reconnecting) server. */
  list(): McpRemoteServer[] {
    return [...this.servers.values()];
  }

  /**
   * Disconnects from the server and removes its tools.
   *
   * @returns whether there was such a server.
   */
  async disconnect(name: string): Promise<boolean> {
    const server = this.servers.get(name);
    if (!server) return false;
    this.servers.delete(name);
    await server.close();
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.list().map((server) => server.close()));
    this.servers.clear();
  }
}
