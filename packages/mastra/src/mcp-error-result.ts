import { type ToolError, type ToolFailure } from '@toolshield/core';
import { createToolError, isToolErrorType } from '@toolshield/core/internal';

/** A tool result an MCP server marked `isError` (MCP reports a tool's own failure in-band). @publicApi */
export interface McpErrorResult {
  /** The server's mark that the tool failed. */
  readonly isError: true;
  /** What the server said; its text parts are the error's message. */
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  /** A toolshield server's `ToolFailure`, or anything a server adds. */
  readonly structuredContent?: unknown;
}

/**
 * What a Mastra tool returned when the MCP server behind it answered with `isError: true`
 * (Mastra's MCP client returns that envelope rather than throwing, with `onToolError:
 * 'return'` and in versions before it read `isError`). Thrown inside the shield, so it is
 * classified like any failure, counted by the breaker and retried when transient. Your
 * `classificationRules` see it first (read its `result` to decide, e.g. `'upstream_unavailable'`
 * for a server's "try again later"); without a rule it is `internal` (not retried).
 *
 * @publicApi
 */
export class McpToolResultError extends Error {
  /** `McpToolResultError`. */
  override readonly name = 'McpToolResultError';
  /** The result the server marked `isError`. */
  readonly result: McpErrorResult;

  constructor(result: McpErrorResult) {
    super(textOf(result) || 'The MCP tool failed without saying why.');
    this.result = result;
  }
}

/** Whether a tool's return value is an MCP result marked `isError`. @internal */
export function isMcpErrorResult(value: unknown): value is McpErrorResult {
  return (
    typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true
  );
}

/**
 * The error an `isError` result means: a toolshield `ToolFailure` in its `structuredContent`
 * (a toolshield MCP server's failure) keeps its type and retry facts; anything else is an
 * {@link McpToolResultError} for the classifier.
 *
 * @internal
 */
export function mcpResultError(result: McpErrorResult): ToolError | McpToolResultError {
  const failure = toolFailureIn(result.structuredContent);
  return failure === undefined
    ? new McpToolResultError(result)
    : createToolError(failure.errorType, failure.error, {
        retryAfterMs: failure.retryAfterMs,
        issues: failure.issues,
        cause: new McpToolResultError(result),
      });
}

function textOf(result: McpErrorResult): string {
  return (result.content ?? [])
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
    .trim();
}

function toolFailureIn(value: unknown): ToolFailure | undefined {
  const candidate = value as Partial<ToolFailure> | undefined;
  return candidate?.success === false &&
    isToolErrorType(candidate.errorType) &&
    typeof candidate.error === 'string'
    ? (candidate as ToolFailure)
    : undefined;
}
