import type { AbortListener, AbortSignalLike } from './abort-signal-like.js';

const NOT_ABORTED: unique symbol = Symbol('not aborted');

/**
 * A cancellation that the policies can listen to ({@link AbortSignalLike}) and that makes a
 * real `AbortSignal` only when something asks for one ({@link AbortSource.signal}): a tool
 * passing it to `fetch`, say. An `AbortController` and the listener list of its signal cost
 * more time and memory than the rest of an attempt's bookkeeping, and most attempts end
 * without anyone reading their signal. Listeners run once, in the order they were added.
 *
 * @publicApi
 */
export class AbortSource implements AbortSignalLike {
  #reason: unknown = NOT_ABORTED;
  /** Most sources have one listener at a time (the running attempt's); more only when they overlap. */
  #listeners: AbortListener | AbortListener[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#reason !== NOT_ABORTED;
  }

  get reason(): unknown {
    return this.#reason === NOT_ABORTED ? undefined : this.#reason;
  }

  /** A real `AbortSignal` that aborts with this source, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  addEventListener(_type: 'abort', listener: AbortListener): void {
    const listeners = this.#listeners;
    if (listeners === undefined) this.#listeners = listener;
    else if (Array.isArray(listeners)) listeners.push(listener);
    else this.#listeners = [listeners, listener];
  }

  removeEventListener(_type: 'abort', listener: AbortListener): void {
    const listeners = this.#listeners;
    if (listeners === listener) this.#listeners = undefined;
    else if (Array.isArray(listeners)) {
      const index = listeners.indexOf(listener);
      if (index >= 0) listeners.splice(index, 1);
    }
  }

  /** Aborts with `reason` (once): the real signal, if made, then each listener. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    const event = new Event('abort');
    for (const listener of Array.isArray(listeners) ? listeners : [listeners]) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  }
}
