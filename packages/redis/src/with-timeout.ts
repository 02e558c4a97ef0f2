/** Thrown when a Redis command takes longer than the store's `commandTimeoutMs`. @publicApi */
export class RedisCommandTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The Redis command took longer than ${timeoutMs} ms`);
    this.name = 'RedisCommandTimeoutError';
  }
}

/**
 * `work`, or a {@link RedisCommandTimeoutError} after `timeoutMs`, whichever comes first.
 * The timeout gives the replies that already arrived one turn of the event loop before it
 * counts: after a stall (a busy event loop), timers run before the socket is read, and a
 * reply waiting there is no sign of a slow Redis.
 */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let afterReads: ReturnType<typeof setImmediate> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Not unref'd: an unref'd immediate lets the loop block in its poll for the reply.
      afterReads = setImmediate(() => reject(new RedisCommandTimeoutError(timeoutMs)));
    }, timeoutMs);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
    clearImmediate(afterReads);
  });
}
