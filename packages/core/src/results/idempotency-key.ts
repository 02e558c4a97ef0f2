/**
 * The default idempotency key: `<conversationId>:<callId>` within a conversation, which is the
 * same when the same call of the same conversation is made again (a resume, another instance).
 * Without a conversation nothing tells two conversations' `call_3` apart, so the key is made
 * unique to this call: `<random UUID>:<callId>` (a repeat then gets a new key; pass a
 * conversation, or the failure's key, to make a repeat safe).
 *
 * @publicApi
 */
export function defaultIdempotencyKey(call: {
  readonly callId: string;
  readonly conversationId?: string;
}): string {
  return `${call.conversationId ?? crypto.randomUUID()}:${call.callId}`;
}
