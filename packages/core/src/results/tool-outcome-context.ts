/**
 * What the builders of `ToolResult`s and `ToolFailure`s need to know about the call.
 *
 * @publicApi
 */
export interface ToolOutcomeContext {
  /** The tool name (as registered, or as asked for when unknown). */
  readonly tool: string;
  readonly callId: string;
  /** Wall (or virtual) time from start to result, in ms. */
  readonly durationMs: number;
  /** Retries performed after the first attempt. Default 0. */
  readonly retryCount?: number;
  /** Retries allowed after the first attempt. Default 0. */
  readonly retryMax?: number;
  /** Extra facts for the result's metadata (conversation id, `chaos: true`, ...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
