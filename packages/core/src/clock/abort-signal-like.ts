/** A listener of an {@link AbortSignalLike}'s `abort` event. @publicApi */
export type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

/**
 * What toolshield's policies read of a cancellation signal: an `AbortSignal` is one. Accepting
 * this rather than `AbortSignal` lets a host cancel calls through a lighter object of its own
 * (`@toolshield/nest` keeps one per call in flight, and makes a real `AbortSignal` only when a
 * tool asks for one).
 *
 * @publicApi
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(
    type: 'abort',
    listener: AbortListener,
    options?: { readonly once?: boolean },
  ): void;
  removeEventListener(type: 'abort', listener: AbortListener): void;
}
