import { defaultIdempotencyKey } from '@toolshield/core';

/**
 * What a call's idempotency key is built from: the module's `idempotencyKey` hook gets it.
 *
 * @publicApi
 */
export interface IdempotencyKeyRequest {
  /** The call's id, as the model gave it (models often number calls per conversation). */
  readonly callId: string;
  readonly toolName: string;
  /** `execute(request, { conversationId })`; `AgentRunner` passes its run's. */
  readonly conversationId?: string;
  /** `execute(request, { metadata })` (tenant, user, ...), or an empty object. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * Builds a call's `ToolCallContext.idempotencyKey` (a non-blank string) when the caller passed
 * none: `ToolShieldModule.forRoot({ idempotencyKey })`.
 *
 * @publicApi
 */
export type IdempotencyKeyFactory = (call: IdempotencyKeyRequest) => string;

/**
 * The key of a call: the caller's own, else the hook's, else `<conversationId>:<callId>`;
 * `undefined` when the call has none of these, and its key is to be made unique to it when
 * first read ({@link defaultIdempotencyKey}; most tools never read it, so most calls skip the
 * random draw). A hook that returns no text throws (the call ends `internal` before the tool
 * runs).
 *
 * @internal
 */
export function idempotencyKeyOf(
  own: string | undefined,
  call: IdempotencyKeyRequest,
  hook: IdempotencyKeyFactory | undefined,
): string | undefined {
  if (own !== undefined) return own;
  if (hook === undefined) {
    return call.conversationId === undefined ? undefined : defaultIdempotencyKey(call);
  }
  const key: unknown = hook(call);
  if (typeof key === 'string' && key.trim() !== '') return key;
  throw new Error(
    `The idempotencyKey option of ToolShieldModule returned ${typeof key === 'string' ? 'a blank string' : String(key)} for call ${call.callId} of '${call.toolName}'; it must return a non-blank string.`,
  );
}
