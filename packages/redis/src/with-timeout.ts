/** Thrown when a Redis command takes longer than the store's `commandTimeoutMs`. */
export class RedisCommandTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The Redis command took longer than ${timeoutMs} ms`);
    this.name = 'RedisCommandTimeoutError';
  }
}

/** `work`, or a {@link RedisCommandTimeoutError} after `timeoutMs`, whichever comes first. */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisCommandTimeoutError(timeoutMs)), timeoutMs);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
