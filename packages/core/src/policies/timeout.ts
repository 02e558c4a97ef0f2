import { ToolTimeoutError } from '../errors/timeout.error.js';
import { systemClock } from '../clock/system-clock.js';
import { cancellationError } from './cancellation.js';
import type { PolicyContext } from './retry.js';

/** @publicApi */
export interface TimeoutOptions extends PolicyContext {
  /** The attempt's time limit; `undefined` or `Infinity` sets none (the caller can still abort). */
  readonly timeoutMs?: number;
  /** Put on the `ToolTimeoutError`. */
  readonly toolName?: string;
}

/**
 * Runs one attempt with a time limit and real cancellation. `fn` receives the attempt's
 * signal, which aborts when the limit passes (reason: `ToolTimeoutError`) or when the
 * caller's `signal` aborts (reason: `CancelledError`, or the caller's reason if it is a
 * `ToolError`); the returned promise rejects with that reason at the same moment, even if
 * `fn` never settles. A result or error arriving later is discarded. The timer and the
 * listener on the caller's signal are removed as soon as the attempt settles either way.
 *
 * @example
 * const body = await withTimeout((signal) => fetch(url, { signal }).then((r) => r.text()), {
 *   timeoutMs: 5_000,
 *   signal: call.signal,
 *   clock,
 * });
 * @publicApi
 */
export function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  options: TimeoutOptions,
): Promise<T> {
  const { timeoutMs, signal: callerSignal, clock = systemClock, toolName } = options;
  if (callerSignal?.aborted) return Promise.reject(cancellationError(callerSignal.reason));
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      cancelTimer?.();
      callerSignal?.removeEventListener('abort', onCallerAbort);
      return true;
    };
    const abort = (reason: unknown): void => {
      if (!settle()) return;
      controller.abort(reason);
      reject(reason);
    };
    const onCallerAbort = (): void => abort(cancellationError(callerSignal?.reason));
    const cancelTimer =
      timeoutMs === undefined || timeoutMs === Number.POSITIVE_INFINITY
        ? undefined
        : clock.setTimer(
            () =>
              abort(
                new ToolTimeoutError(`Timed out after ${timeoutMs} ms`, {
                  toolName,
                  metadata: { timeoutMs },
                }),
              ),
            timeoutMs,
          );
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const attempt = (async () => fn(controller.signal))();
    attempt.then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}
