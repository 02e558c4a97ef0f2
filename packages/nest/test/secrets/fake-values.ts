/**
 * Deterministic fake credential material. Every secret of the corpus is generated here at run
 * time in its family's real format, so the repository holds no literal that a secret scanner
 * (or a reader) could mistake for a live credential.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
export const ALNUM = `${UPPER}${LOWER}${DIGITS}`;
export const BASE32 = `${UPPER}234567`;
export const BASE64 = `${ALNUM}+/`;
export const BASE64URL = `${ALNUM}-_`;
export const HEX = `${DIGITS}abcdef`;
export const UPPER_ALNUM = `${UPPER}${DIGITS}`;
export const LETTERS = `${UPPER}${LOWER}`;

/** A small seeded generator (mulberry32): the corpus is the same on every run. */
export function fakeSource(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** `length` characters drawn from `alphabet`. */
  const chars = (alphabet: string, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
  /** `length` characters with at least one digit, one upper and one lower case letter. */
  const mixed = (alphabet: string, length: number): string =>
    `${chars(UPPER, 1)}${chars(DIGITS, 1)}${chars(LOWER, 1)}${chars(alphabet, length - 3)}`;
  return { chars, mixed };
}
