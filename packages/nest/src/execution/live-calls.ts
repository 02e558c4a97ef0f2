import { cancellationError, type AbortListener, type AbortSignalLike } from '@toolshield/core';

/**
 * One call in flight: what cancels it (the caller's signal, when given, and the application's
 * shutdown), as the small {@link AbortSignalLike} the policies listen to. A real `AbortSignal`
 * is made only when something asks for {@link LiveCall.signal} (a tool reading
 * `call.signal` outside an attempt): most calls never need one, and an `AbortController`
 * with a listener costs more time and memory than the rest of a call's bookkeeping.
 *
 * It listens to the caller's signal itself, so nothing listens to a long-lived signal per
 * call (`AbortSignal.any` with the application's lifetime would keep every call's signal as
 * a dependent, and adding a listener to one shared signal costs O(listeners)).
 *
 * @internal
 */
export class LiveCall implements AbortSignalLike {
  aborted = false;
  reason: unknown = undefined;
  /** The one listener most calls have (the running attempt's); more only when they overlap. */
  private listener: AbortListener | undefined;
  private more: AbortListener[] | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly registry: Set<LiveCall>,
    private readonly caller: AbortSignal | undefined,
  ) {
    registry.add(this);
    caller?.addEventListener('abort', this);
  }

  /** A real `AbortSignal` that aborts with this call, made on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  addEventListener(_type: 'abort', listener: AbortListener): void {
    if (this.listener === undefined) this.listener = listener;
    else (this.more ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: AbortListener): void {
    if (this.listener === listener) {
      this.listener = this.more?.shift();
      return;
    }
    const index = this.more?.indexOf(listener) ?? -1;
    if (index >= 0) this.more?.splice(index, 1);
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.abort(this.caller?.reason);
  }

  /** Cancels the call: its listeners run once, with `reason` as the reason. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listener === undefined ? [] : [this.listener, ...(this.more ?? [])];
    this.listener = undefined;
    this.more = undefined;
    const event = new Event('abort');
    for (const listener of listeners) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  }

  /** The call has ended: forgets it and stops listening to the caller. */
  end(): void {
    this.registry.delete(this);
    this.caller?.removeEventListener('abort', this);
  }
}

/**
 * The calls in flight, so that shutdown can cancel them all. Starting and ending a call costs
 * O(1) however many are in flight: the registry is a `Set` that only {@link LiveCalls.close}
 * walks, where one shared lifetime signal would need a listener per call, and
 * `addEventListener` scans the listeners already there.
 *
 * @internal
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
    return new LiveCall(this.calls, callerSignal);
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
