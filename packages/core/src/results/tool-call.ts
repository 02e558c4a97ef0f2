import type { HeadersLike } from '../classification/read-header.js';

/**
 * A tool call as a model emits it.
 *
 * @publicApi
 */
export interface ToolCallRequest {
  /** The provider's call id (`call_...`, `toolu_...`). One is generated when missing. */
  readonly id?: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The model's JSON argument string, or an already parsed object. */
  readonly arguments?: string | Readonly<Record<string, unknown>> | null;
}

/**
 * What a tool method receives about the call it is serving (`@ToolCall()` in Nest).
 *
 * @publicApi
 */
export interface ToolCallContext {
  /** The call id (the provider's, or a generated one). */
  readonly callId: string;
  /** The registered tool name. */
  readonly toolName: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  readonly attempt: number;
  /** Aborted when this attempt times out or the caller gives up: pass it to fetch and friends. */
  readonly signal: AbortSignal;
  /** What the caller attached to the call (conversation id, tenant, ...). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /**
   * The same for every attempt of this call, and for the call again after a crash and a
   * resume: send it upstream as an `Idempotency-Key` header so a repeat of a non-idempotent
   * effect (a payment, an email) returns the first result instead of happening twice.
   * Executors that know the conversation scope it to it (run id + call id); absent where the
   * executor sets none.
   *
   * @example
   * await fetch(url, { method: 'POST', signal: call.signal,
   *   headers: call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {} });
   */
  readonly idempotencyKey?: string;
  /**
   * Passes on the headers of the upstream's response, so an adaptive rate limit learns the
   * upstream's limit from them (`RateLimit`, `RateLimit-Policy`, `X-RateLimit-*`,
   * `Retry-After`). Absent where nothing listens. Refusals need no call: their headers travel
   * on the error.
   *
   * @example
   * const response = await fetch(url, { signal: call.signal });
   * call.reportUpstreamHeaders?.(response.headers);
   */
  readonly reportUpstreamHeaders?: (headers: HeadersLike) => void;
}
