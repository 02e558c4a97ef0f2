import type { INestApplicationContext } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpToolServer } from './mcp-tool-server.js';

/**
 * Serves the application's tools over stdio (the process's stdin and stdout carry MCP), for
 * MCP hosts that start the server as a child process. Keep stdout free of anything else:
 * logs must go to stderr.
 *
 * @example
 * ```ts
 * const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
 * await serveToolsOverStdio(app);
 * ```
 * @publicApi
 */
export async function serveToolsOverStdio(
  app: INestApplicationContext,
  transport = new StdioServerTransport(),
): Promise<Server> {
  return app.get(McpToolServer, { strict: false }).connect(transport);
}
