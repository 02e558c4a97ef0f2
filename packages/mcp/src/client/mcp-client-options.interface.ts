import type { BackoffOptions, RetryOptions } from '@toolshield/core';
import type { ToolBreakerOptions, ToolBulkheadOptions } from '@toolshield/nest';

/**
 * A remote MCP server whose tools toolshield registers as its own, each named
 * `<prefix>__<tool>`: every call to them runs through the pipeline (classification,
 * timeouts, retries for idempotent tools, one circuit breaker for the whole server, chaos,
 * events). Give `url` (Streamable HTTP) or `command` (stdio, a child process).
 *
 * @publicApi
 */
export interface McpClientOptions {
  /** Names the server: its breaker, logs and the default prefix. 1-64 of `A-Za-z0-9_-`. */
  readonly name: string;
  /** The server's Streamable HTTP endpoint. */
  readonly url?: string | URL;
  /** Extra HTTP headers sent with every request (an `authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The command that starts a stdio server. */
  readonly command?: string;
  readonly args?: readonly string[];
  /** The stdio server's environment (default: the SDK's safe subset of this process's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What happens to the stdio server's stderr (default `'inherit'`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
  /** Put before every tool name, with `__` (default: `name`). */
  readonly prefix?: string;
  /**
   * Which tools may be retried: by default those the server marks `idempotentHint`; `true`
   * all of them, a list those tools (by their remote names) as well as the hinted ones,
   * `false` none.
   */
  readonly idempotent?: boolean | readonly string[];
  /** Retry settings of the tools that are retried (the module's defaults otherwise). */
  readonly retry?: RetryOptions;
  /** Time limit of each attempt (default: the toolshield module's); `false` for none. */
  readonly timeoutMs?: number | false;
  /** The SDK's own request timeout, the last resort when `timeoutMs` is off (default 60 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Settings of the server's one breaker, shared by all its tools and named after the server;
   * `false` for none. Results the server marks `isError` are neutral: the server answered.
   */
  readonly breaker?: Omit<ToolBreakerOptions, 'name' | 'key'> | false;
  /** Limits concurrent calls per tool. */
  readonly bulkhead?: ToolBulkheadOptions;
  /** Waits between reconnection attempts (default 250 ms doubling to 30 s, full jitter). */
  readonly reconnect?: BackoffOptions;
}
