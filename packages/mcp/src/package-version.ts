import { readFileSync } from 'node:fs';

/** The version of @toolshield/mcp, from its package.json (one folder up from src or dist). */
export const MCP_PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
