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
  /**
   * The retry budget withheld a retry the policy would have made, to protect a failing
   * upstream: the failure says so (`metadata.retriesWithheld`) and points elsewhere.
   */
  readonly retriesWithheld?: boolean;
  /**
   * The tool has side effects (see `hasSideEffects`): a failure after its request may have
   * left says so (`ToolFailure.effect`). Default `true`: a tool not declared idempotent or
   * read-only is treated as having them.
   */
  readonly sideEffects?: boolean;
  /** The call's `ToolCallContext.idempotencyKey`, put on a failure whose effect is unknown. */
  readonly idempotencyKey?: string;
  /** Extra facts for the result's metadata (conversation id, `chaos: true`, ...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
