/** The longest wait between two connection attempts of the connections this package owns (ms). */
export const MAX_RECONNECT_DELAY_MS = 500;

/**
 * The ioredis `retryStrategy` of the connections this package owns (the module's, when given
 * a URL, and every store's pub/sub connection): 50 ms after the first failed attempt,
 * doubling up to {@link MAX_RECONNECT_DELAY_MS}, and never giving up. An instance then joins
 * the shared state again at most half a second after Redis answers, however long the outage
 * was (ioredis's own default doubles up to 5 s).
 *
 * @param attempt the attempt about to be made, from 1
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(attempt - 1, 10), MAX_RECONNECT_DELAY_MS);
}
