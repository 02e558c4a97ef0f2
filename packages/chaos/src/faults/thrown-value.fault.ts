import type { ChaosFault } from './chaos-fault.js';

/**
 * What a badly written tool or library throws instead of an `Error`.
 *
 * @publicApi
 */
export type ThrownValueKind = 'string' | 'undefined' | 'null' | 'object' | 'circular';

/** The message the thrown string and objects carry; it names chaos, since a string cannot be marked. */
const THROWN_MESSAGE = 'upstream exploded (a non-Error thrown by toolshield chaos)';

/**
 * Creates the value {@link thrownValue} throws. Objects carry no stack and no `name`;
 * `circular` refers to itself (`value.self === value`), so naive serialisation fails.
 *
 * @publicApi
 */
export function createThrownValue(kind: ThrownValueKind): unknown {
  switch (kind) {
    case 'string':
      return THROWN_MESSAGE;
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'object':
      return { message: THROWN_MESSAGE, code: 'CHAOS_THROWN_OBJECT' };
    case 'circular': {
      const circular: { message: string; self?: unknown } = { message: THROWN_MESSAGE };
      circular.self = circular;
      return circular;
    }
  }
}

/**
 * Rejects with something that is not an `Error`: a string, `undefined`, `null`, a plain
 * object or a circular one. The tool is not called. Objects carry the chaos marker (a
 * non-enumerable symbol); primitives cannot, the `chaos.injected` event records them.
 *
 * @publicApi
 */
export function thrownValue(kind: ThrownValueKind = 'string'): ChaosFault {
  return {
    name: `thrown:${kind}`,
    inject(invocation) {
      return Promise.reject(invocation.mark(createThrownValue(kind)));
    },
  };
}
