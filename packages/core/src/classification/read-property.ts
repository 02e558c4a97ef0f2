/**
 * Reads `value[key]` without ever throwing: thrown values may be proxies, revoked proxies or
 * objects whose getters throw. Anything unreadable reads as `undefined`.
 */
export function readProperty(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null)
    return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `value[key]` when it is a non-empty string. */
export function readString(value: unknown, key: string): string | undefined {
  const read = readProperty(value, key);
  return typeof read === 'string' && read !== '' ? read : undefined;
}

/** `value[key]` when it is a finite number. */
export function readNumber(value: unknown, key: string): number | undefined {
  const read = readProperty(value, key);
  return typeof read === 'number' && Number.isFinite(read) ? read : undefined;
}
