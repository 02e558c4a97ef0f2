import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  InternalToolError,
  InvalidInputError,
  NetworkError,
  ToolTimeoutError,
  UpstreamUnavailableError,
  type ToolError,
  type ToolFailure,
} from '@toolshield/core';
import {
  createToolError,
  isToolErrorType,
  toolErrorTypeForHttpStatus,
} from '@toolshield/core/internal';

/**
 * What a failed remote call means: a ToolError of the taxonomy, or that the server does not
 * know the tool (which needs the server's current list to report).
 */
export type McpFailure =
  | { readonly kind: 'error'; readonly error: ToolError }
  | { readonly kind: 'unknown_tool'; readonly message: string };

const UNKNOWN_TOOL = /\b(unknown tool|tool\b.*\bnot found)\b/i;
/** How the SDK's McpError prints itself, also inside `isError` results of SDK 1.x servers. */
const MCP_ERROR_TEXT = /^MCP error (-?\d+): ([\s\S]*)$/;
const MCP_ERROR_PREFIXES = /^(MCP error -?\d+: )+/;

const remoteResults = new WeakSet<object>();

/**
 * Whether the error came from a result the server marked `isError`: the server answered, so
 * its breaker counts it neither way.
 */
export function isRemoteToolFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && remoteResults.has(error);
}

/**
 * Maps what `Client.callTool` threw: a closed connection → `network`, the SDK's request
 * timeout → `timeout`, invalid params → `invalid_input`, an unknown tool (invalid params
 * saying so, or method not found) → `unknown_tool`, a JSON-RPC internal error →
 * `upstream_unavailable`, HTTP statuses by their meaning (404: the session is gone →
 * `network`). `undefined` for anything else (the classifier takes it).
 */
export function mcpFailureOf(error: unknown, server: string): McpFailure | undefined {
  if (error instanceof McpError) return fromCode(error.code, stripPrefix(error), server);
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? 0;
    if (status === 404) {
      return wrap(
        new NetworkError(`The MCP server "${server}" lost the session.`, { cause: error }),
      );
    }
    const type = toolErrorTypeForHttpStatus(status);
    return (
      type &&
      wrap(
        createToolError(type, error.message, {
          cause: error,
          metadata: { mcpServer: server, status },
        }),
      )
    );
  }
  return undefined;
}

/**
 * Maps a result the server marked `isError`: a toolshield `ToolFailure` in
 * `structuredContent` keeps its type and retry facts; an SDK error text (`MCP error -32602:
 * ...`) is read like the thrown error; anything else is an `internal` failure carrying the
 * server's text.
 */
export function mcpResultFailure(
  result: CallToolResult,
  server: string,
  localName: (remote: string) => string,
): McpFailure {
  const text = textOf(result) || 'The remote tool failed without saying why.';
  const metadata = { mcpServer: server };
  const failure = toolFailureIn(result.structuredContent);
  const coded = MCP_ERROR_TEXT.exec(text);
  const mapped: McpFailure = (failure && {
    kind: 'error',
    error: createToolError(failure.errorType, failure.error, {
      retryAfterMs: failure.retryAfterMs,
      issues: failure.issues,
      availableTools: failure.availableTools?.map(localName),
      didYouMean: failure.didYouMean?.map(localName),
      metadata,
    }),
  }) ??
    (coded && fromCode(Number(coded[1]), coded[2] ?? text, server)) ?? {
      kind: 'error',
      error: new InternalToolError(text, { metadata }),
    };
  if (mapped.kind === 'error') remoteResults.add(mapped.error);
  return mapped;
}

/** The text parts of a result, joined. @internal */
export function textOf(result: CallToolResult): string {
  return result.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

function fromCode(code: number, message: string, server: string): McpFailure | undefined {
  const metadata = { mcpServer: server, mcpErrorCode: code };
  switch (code) {
    case ErrorCode.ConnectionClosed:
      return wrap(
        new NetworkError(`The connection to MCP server "${server}" closed.`, { metadata }),
      );
    case ErrorCode.RequestTimeout:
      return wrap(
        new ToolTimeoutError(`MCP server "${server}" did not answer in time.`, { metadata }),
      );
    case ErrorCode.MethodNotFound:
      return { kind: 'unknown_tool', message };
    case ErrorCode.InvalidParams:
      return UNKNOWN_TOOL.test(message)
        ? { kind: 'unknown_tool', message }
        : wrap(new InvalidInputError(message, { metadata }));
    case ErrorCode.InternalError:
      return wrap(new UpstreamUnavailableError(message, { metadata }));
    default:
      return undefined;
  }
}

function wrap(error: ToolError): McpFailure {
  return { kind: 'error', error };
}

/**
 * The McpError's own message, without the `MCP error <code>: ` it prints itself with (twice
 * when the server's McpError message travelled in a JSON-RPC error and was wrapped again).
 */
function stripPrefix(error: McpError): string {
  return error.message.replace(MCP_ERROR_PREFIXES, '');
}

function toolFailureIn(value: unknown): ToolFailure | undefined {
  const candidate = value as Partial<ToolFailure> | undefined;
  return candidate?.success === false &&
    isToolErrorType(candidate.errorType) &&
    typeof candidate.error === 'string'
    ? (candidate as ToolFailure)
    : undefined;
}
