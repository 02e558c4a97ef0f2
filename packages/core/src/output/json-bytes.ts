/**
 * UTF-8 bytes of `text` as `JSON.stringify` writes it as a string value, quotes included:
 * escapes (`\"`, `\n`, `\u0001`, a lone surrogate as `\udc00`) count as the ASCII they become,
 * a surrogate pair as the four bytes of its code point.
 *
 * @internal
 */
export function jsonStringBytes(text: string, limit = Number.POSITIVE_INFINITY): number {
  let bytes = 2;
  for (let index = 0; index < text.length && bytes <= limit; index += 1) {
    const step = jsonCharBytes(text, index);
    bytes += step.bytes;
    index += step.units - 1;
  }
  return bytes;
}

/** UTF-8 bytes of the JSON form of `value` (plain JSON: what `JSON.parse` returns). @internal */
export function jsonBytes(value: unknown): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  return utf8Bytes(JSON.stringify(value) ?? 'null');
}

/** UTF-8 bytes of a well-formed string (what `JSON.stringify` returns). @internal */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The JSON-escaped bytes of the character at `index`, and how many UTF-16 units it spans. */
export function jsonCharBytes(
  text: string,
  index: number,
): { readonly bytes: number; readonly units: 1 | 2 } {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return ONE_UNIT[2];
  if (code < 0x20) return SHORT_ESCAPES.has(code) ? ONE_UNIT[2] : ONE_UNIT[6];
  if (code < 0x80) return ONE_UNIT[1];
  if (code < 0x800) return ONE_UNIT[2];
  if (isHighSurrogate(code)) {
    return isLowSurrogate(text.charCodeAt(index + 1)) ? PAIR : ONE_UNIT[6];
  }
  return isLowSurrogate(code) ? ONE_UNIT[6] : ONE_UNIT[3];
}

/** `\b \t \n \f \r`: the control characters with a two-character escape. */
const SHORT_ESCAPES: ReadonlySet<number> = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
const ONE_UNIT = {
  1: { bytes: 1, units: 1 },
  2: { bytes: 2, units: 1 },
  3: { bytes: 3, units: 1 },
  6: { bytes: 6, units: 1 },
} as const;
const PAIR = { bytes: 4, units: 2 } as const;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
