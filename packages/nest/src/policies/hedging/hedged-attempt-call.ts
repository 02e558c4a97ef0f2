import { AsyncLocalStorage } from 'node:async_hooks';
import type { HeadersLike } from '@toolshield/core';
import type { AbortSource } from '@toolshield/core/internal';
import type { MutableToolCallContext } from '../../execution/tool-call-state.js';

/**
 * One attempt of a hedged call, as the tool sees it: the call's identity and attempt number,
 * its own `signal` (aborted when the other attempt wins, the attempt times out or the caller
 * leaves) and its own record of the upstream's headers, which the adaptive rate limit hears
 * when the attempt succeeds.
 *
 * @internal
 */
export class HedgedAttemptCall implements MutableToolCallContext {
  readonly callId: string;
  readonly toolName: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly idempotencyKey: string | undefined;
  attempt: number;
  /** What the tool passed on with `reportUpstreamHeaders` during this attempt. */
  upstreamHeaders?: HeadersLike;
  /** This attempt's cancellation (from the hedger). */
  attemptSource: AbortSource | undefined;

  constructor(
    /** The call's own context, which the pipeline around the attempt goes on using. */
    readonly of: MutableToolCallContext,
    source: AbortSource,
  ) {
    this.callId = of.callId;
    this.toolName = of.toolName;
    this.metadata = of.metadata;
    this.idempotencyKey = of.idempotencyKey;
    this.attempt = of.attempt;
    this.attemptSource = source;
  }

  /** The attempt's own signal, made when first read (most attempts never read it). */
  get signal(): AbortSignal {
    return (this.attemptSource as AbortSource).signal;
  }

  reportUpstreamHeaders(headers: HeadersLike): void {
    this.upstreamHeaders = headers;
  }
}

/**
 * The method's parameters and the interceptors between the policies and the
 * method (chaos) are resolved from the call's own arguments, which two concurrent attempts
 * share: the attempt running is told through the async context instead.
 */
const currentAttempt = new AsyncLocalStorage<HedgedAttemptCall>();

/** Runs `run` (the rest of Nest's pipeline) as `attempt`, when it is a hedged attempt's context. @internal */
export function runAsAttempt<T>(attempt: MutableToolCallContext, run: () => T): T {
  return attempt instanceof HedgedAttemptCall ? currentAttempt.run(attempt, run) : run();
}

/**
 * The context the tool method should get for `call` where this runs: inside a hedged
 * attempt of that call, the attempt's own; otherwise `call`. @internal
 */
export function attemptCallOf(call: unknown): unknown {
  const attempt = currentAttempt.getStore();
  return attempt !== undefined && attempt.of === call ? attempt : call;
}
