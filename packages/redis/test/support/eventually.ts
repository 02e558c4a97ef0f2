/**
 * A bound for waits on something that comes with no event to wait on (health, counts read
 * back, states reached): far above the usual 0.1–0.6 s and under the test's timeout, so only
 * what never comes fails, not what a loaded machine slows down.
 */
export const REJOIN_WITHIN_MS = 20_000;

/**
 * Polls `check` every 5 ms until it returns true; rejects after `withinMs` (by default the
 * generous bound above: a spec that holds a speed asserts the wait this resolves with).
 * Resolves the wait in ms.
 */
export async function eventually(
  check: () => boolean,
  withinMs = REJOIN_WITHIN_MS,
): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - start;
}
