import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpClientOptions } from './mcp-client-options.interface.js';

/**
 * A fresh transport to the server (every connection attempt needs its own): Streamable HTTP
 * for a `url`, a child process over stdio for a `command`.
 *
 * @internal
 */
export function createClientTransport(options: McpClientOptions): Transport {
  if (options.url !== undefined) {
    return new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: options.headers ? { headers: { ...options.headers } } : undefined,
      // toolshield reconnects the whole session itself, with its own backoff.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
  }
  if (options.command !== undefined) {
    return new StdioClientTransport({
      command: options.command,
      args: options.args ? [...options.args] : undefined,
      env: options.env ? { ...options.env } : undefined,
      cwd: options.cwd,
      stderr: options.stderr ?? 'inherit',
    });
  }
  throw new Error(
    `MCP client "${options.name}" needs a url (Streamable HTTP) or a command (stdio).`,
  );
}
