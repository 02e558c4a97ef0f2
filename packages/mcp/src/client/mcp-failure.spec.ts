import { describe, expect, it } from '@jest/globals';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isRemoteToolFailure, mcpFailureOf, mcpResultFailure } from './mcp-failure.js';

const text = (value: string, extra: Partial<CallToolResult> = {}): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  isError: true,
  ...extra,
});
const local = (name: string) => `remote__${name}`;
const typeOf = (failure: ReturnType<typeof mcpFailureOf>) =>
  failure?.kind === 'error' ? failure.error.type : failure?.kind;

describe('mapping MCP failures into the taxonomy', () => {
  it('maps thrown protocol and transport errors by code and status', () => {
    expect(
      typeOf(mcpFailureOf(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 's')),
    ).toBe('network');
    expect(
      typeOf(mcpFailureOf(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 's')),
    ).toBe('timeout');
    expect(
      typeOf(mcpFailureOf(new McpError(ErrorCode.InvalidParams, 'Tool x not found'), 's')),
    ).toBe('unknown_tool');
    expect(
      typeOf(mcpFailureOf(new McpError(ErrorCode.MethodNotFound, 'Unknown tool: x'), 's')),
    ).toBe('unknown_tool');
    expect(typeOf(mcpFailureOf(new McpError(ErrorCode.InternalError, 'boom'), 's'))).toBe(
      'upstream_unavailable',
    );
    expect(typeOf(mcpFailureOf(new StreamableHTTPError(404, 'Session not found'), 's'))).toBe(
      'network',
    );
    expect(typeOf(mcpFailureOf(new StreamableHTTPError(429, 'Slow down'), 's'))).toBe(
      'rate_limited',
    );
    expect(typeOf(mcpFailureOf(new StreamableHTTPError(403, 'Forbidden'), 's'))).toBe(
      'permission_denied',
    );
    expect(mcpFailureOf(new Error('anything else'), 's')).toBeUndefined();
  });

  it('reads invalid params without the SDK prefix, however often it was added', () => {
    const wrapped = new McpError(
      ErrorCode.InvalidParams,
      'MCP error -32602: count must be a number',
    );
    const failure = mcpFailureOf(wrapped, 's');
    expect(failure?.kind === 'error' && failure.error.message).toBe('count must be a number');
  });

  it('keeps the type and retry facts of a toolshield failure a remote toolshield server sent', () => {
    const sent = (structuredContent: Record<string, unknown>) =>
      mcpResultFailure(text('failed', { structuredContent }), 'remote', local);
    const limited = sent({
      success: false,
      errorType: 'rate_limited',
      error: 'Slow down.',
      retryAfterMs: 2_000,
    });
    const error = limited.kind === 'error' ? limited.error : undefined;
    expect([error?.type, error?.message, error?.retryAfterMs]).toEqual([
      'rate_limited',
      'Slow down.',
      2_000,
    ]);
    const unknown = sent({
      success: false,
      errorType: 'tool_not_found',
      error: 'No tool x.',
      didYouMean: ['search'],
    });
    expect(unknown.kind === 'error' && unknown.error).toHaveProperty('didYouMean', [
      'remote__search',
    ]);
  });

  it('reads the error texts of SDK 1.x servers, and keeps any other text as an internal failure of the remote tool', () => {
    expect(mcpResultFailure(text('MCP error -32602: Tool x not found'), 'remote', local).kind).toBe(
      'unknown_tool',
    );
    const invalid = mcpResultFailure(
      text('MCP error -32602: Input validation error: bad'),
      'remote',
      local,
    );
    expect(invalid.kind === 'error' && invalid.error.type).toBe('invalid_input');
    const plain = mcpResultFailure(text('The database is down.'), 'remote', local);
    const error = plain.kind === 'error' ? plain.error : undefined;
    expect([error?.type, error?.message, error?.metadata]).toEqual([
      'internal',
      'The database is down.',
      { mcpServer: 'remote' },
    ]);
    expect(plain.kind === 'error' && isRemoteToolFailure(plain.error)).toBe(true);
    expect(isRemoteToolFailure(new Error('ours'))).toBe(false);
  });
});
