/**
 * Runs one execution per key at a time: calls with a key already running join it and get its
 * result (or its error) instead of starting their own.
 *
 * @example
 * const flights = new SingleFlight<string>();
 * await Promise.all([flights.run('q', search), flights.run('q', search)]); // search ran once
 * @publicApi
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** Whether an execution of `key` is running. */
  has(key: string): boolean {
    return this.running.has(key);
  }

  /** `execute()`'s result, shared with every call of `key` made while it runs. */
  run(key: string, execute: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running !== undefined) {
      return running;
    }
    const started = execute().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
