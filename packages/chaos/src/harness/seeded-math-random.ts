import { createRuleRandomStreams } from '../random/random-stream.js';
import { deriveSeed } from '../random/seed.js';

/**
 * Runs `run` with `Math.random` drawing from a stream of `seed`, and restores it afterwards,
 * so retry jitter (and any other `Math.random` in the app) replays exactly with the seed:
 * with calls in flight together, the jitter decides their order, and the order decides
 * which calls the rules select. Runs must not overlap.
 */
export async function withSeededMathRandom<T>(seed: number, run: () => Promise<T>): Promise<T> {
  const original = Math.random;
  Math.random = createRuleRandomStreams(deriveSeed(seed, 'Math.random')).selection;
  try {
    return await run();
  } finally {
    Math.random = original;
  }
}
