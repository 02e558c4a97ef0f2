/** Polls `check` every 5 ms until it returns true; rejects after `withinMs`. Resolves the wait in ms. */
export async function eventually(check: () => boolean, withinMs = 2_000): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - start;
}
