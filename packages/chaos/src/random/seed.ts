/**
 * Derives the seed of one named stream from a run's seed, so each rule draws from its own
 * stream: adding, removing or reordering rules never changes another rule's draws.
 * FNV-1a over the name, mixed with the seed through the murmur3 finaliser; the result is an
 * unsigned 32-bit integer.
 *
 * @publicApi
 */
export function deriveSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return mix32(hash ^ (seed | 0));
}

/** A fresh seed for runs that did not ask for one (report it so the run can be repeated). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x1_0000_0000) >>> 0;
}

function mix32(value: number): number {
  let x = value;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
