import { AbortSource, cancellationError } from '@toolshield/core/internal';

/**
 * One call in flight: what cancels it (the caller's signal, when given, and the application's
 * shutdown), as an {@link AbortSource} the policies listen to; a real `AbortSignal` is made
 * only when something reads {@link AbortSource.signal}.
 *
 * It listens to the caller's signal itself, so nothing listens to a long-lived signal per
 * call (`AbortSignal.any` with the application's lifetime would keep every call's signal as
 * a dependent, and adding a listener to one shared signal costs O(listeners)).
 */
export class LiveCall extends AbortSource {
  /** Stops listening to the caller (the call has ended). */
  detach(): void {
    // Without a caller's signal there is nothing to stop listening to.
  }
}

/** A {@link LiveCall} whose caller passed a signal of its own, which cancels it too. @internal */
class CallerLinkedCall extends LiveCall {
  constructor(private readonly caller: AbortSignal) {
    super();
    caller.addEventListener('abort', this);
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.abort(this.caller.reason);
  }

  override detach(): void {
    this.caller.removeEventListener('abort', this);
  }
}

/**
 * The calls in flight, so that shutdown can cancel them all. Starting and ending a call costs
 * O(1) however many are in flight: the registry is a `Set` that only {@link LiveCalls.close}
 * walks, where one shared lifetime signal would need a listener per call, and
 * `addEventListener` scans the listeners already there.
 */
export class LiveCalls {
  private readonly calls = new Set<LiveCall>();
  private closedWith: { readonly reason: unknown } | undefined;

  /**
   * Registers a new call, cancelled when the application shuts down or `callerSignal`
   * aborts. Throws the cancellation error when the application already has shut down, or
   * when `callerSignal` is already aborted.
   */
  open(callerSignal: AbortSignal | undefined): LiveCall {
    if (this.closedWith) throw cancellationError(this.closedWith.reason);
    if (callerSignal?.aborted) throw cancellationError(callerSignal.reason);
    const call = callerSignal ? new CallerLinkedCall(callerSignal) : new LiveCall();
    this.calls.add(call);
    return call;
  }

  /** Forgets a call that has ended. */
  end(call: LiveCall): void {
    this.calls.delete(call);
    call.detach();
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
    for (const call of calls) call.abort(reason);
  }
}
