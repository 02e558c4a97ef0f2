import { cancellationError } from '@toolshield/core';

/**
 * The calls in flight, each with its own abort controller, so that shutdown can cancel them
 * all. Starting and ending a call costs O(1) however many are in flight: the registry is a
 * `Set` that only {@link LiveCalls.close} walks, where one shared lifetime signal would need
 * a listener per call, and `addEventListener` scans the listeners already there.
 *
 * @internal
 */
export class LiveCalls {
  private readonly calls = new Set<AbortController>();
  private closedWith: { readonly reason: unknown } | undefined;

  /**
   * Registers a new call and returns its controller, whose signal aborts when the
   * application shuts down. Throws the cancellation error when it already has, or when
   * `callerSignal` is already aborted.
   */
  open(callerSignal: AbortSignal | undefined): AbortController {
    if (this.closedWith) throw cancellationError(this.closedWith.reason);
    if (callerSignal?.aborted) throw cancellationError(callerSignal.reason);
    const controller = new AbortController();
    this.calls.add(controller);
    return controller;
  }

  /** Forgets a call that has ended. */
  end(controller: AbortController): void {
    this.calls.delete(controller);
  }

  /** How many calls are in flight. */
  get size(): number {
    return this.calls.size;
  }

  /** Aborts every call in flight with `reason`, and every call started later at once. */
  close(reason: unknown): void {
    this.closedWith = { reason };
    const calls = [...this.calls];
    this.calls.clear();
    for (const controller of calls) controller.abort(reason);
  }
}
