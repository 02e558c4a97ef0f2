/**
 * Remembers one value about an object for as long as the object lives: on the object itself,
 * as a non-enumerable own property under a symbol only this memo knows, or in a `WeakMap`
 * when the object takes no property (frozen, sealed, non-extensible, or a proxy that
 * refuses). A property costs a failing call far less than a `WeakMap` entry, which the
 * garbage collector traces as an ephemeron (ADR 0020: about 8 µs of a 34 µs `internal`
 * failure went to two of them). Spreads, `Object.keys`, `JSON.stringify`, `util.inspect` and
 * Jest's equality do not see the property.
 *
 * Size: one property (or weak entry) per object remembered, for as long as that object lives
 * and no longer; it holds nothing the object does not already keep alive, so it never grows
 * with the number of calls, only with the errors still referenced.
 */
export class ObjectMemo<V> {
  private readonly key: symbol;
  private readonly fallback = new WeakMap<object, V>();

  constructor(description: string) {
    this.key = Symbol(description);
  }

  /** What was remembered about `object` itself (not about an object it inherits from). */
  get(object: object): V | undefined {
    try {
      const value = (object as Record<symbol, V | undefined>)[this.key];
      if (value !== undefined && Object.hasOwn(object, this.key)) return value;
    } catch {
      // a proxy whose traps throw: only the fallback can hold it
    }
    return this.fallback.get(object);
  }

  /** Remembers `value` about `object`, replacing what was remembered before. */
  set(object: object, value: V): void {
    try {
      if (Object.isExtensible(object)) {
        Object.defineProperty(object, this.key, { value, writable: true, configurable: true });
        return;
      }
    } catch {
      // a proxy that refuses the property
    }
    this.fallback.set(object, value);
  }
}
