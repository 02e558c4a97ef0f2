import { InvalidOutputError } from '../errors/invalid-output.error.js';

const MAX_DEPTH = 200;

/** Objects whose contents `JSON.stringify` silently drops. */
const OPAQUE: readonly (abstract new (...args: never[]) => object)[] = [
  Map,
  Set,
  WeakMap,
  WeakSet,
  Promise,
  ArrayBuffer,
  SharedArrayBuffer,
  DataView,
];

/**
 * Checks that a tool's output survives `JSON.stringify` faithfully, and throws an
 * {@link InvalidOutputError} naming the first place it would not: BigInts, symbols, functions,
 * non-finite numbers, `undefined` inside arrays, circular references, maps, sets, typed
 * arrays, promises, values nested more than 200 levels deep and properties that cannot be read.
 * `undefined` as a whole output (a `void` tool) or as a property value (dropped, meaning the
 * same) is accepted, and so is anything with a `toJSON` (dates, URLs, buffers).
 *
 * @example
 * assertSerializableOutput({ total: 10n }); // throws InvalidOutputError: ... a BigInt at output.total
 *
 * @publicApi
 */
export function assertSerializableOutput(output: unknown): void {
  if (output === undefined || isPlainJson(output)) return;
  const problem = findProblem(output, 'output', new Set(), 0, false);
  if (problem !== undefined) {
    throw new InvalidOutputError(`Tool output cannot be sent as JSON: ${problem}.`);
  }
}

/**
 * The quick pass, which most outputs take: true when `value` holds only JSON primitives,
 * plain objects and arrays, with no cycle and within the depth limit. It builds no paths;
 * anything else (class instances, `toJSON`, holes, getters that throw) is left to the full
 * walk, which accepts or words the problem.
 */
function isPlainJson(value: unknown): boolean {
  try {
    return plainJson(value, [], false);
  } catch {
    return false;
  }
}

function plainJson(value: unknown, ancestors: object[], inArray: boolean): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'undefined':
      return !inArray;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (ancestors.length >= MAX_DEPTH || ancestors.includes(value)) return false;
  ancestors.push(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!plainJson(value[i], ancestors, true)) return false;
    }
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key of Object.keys(value)) {
      if (!plainJson((value as Record<string, unknown>)[key], ancestors, false)) return false;
    }
  }
  ancestors.pop();
  return true;
}

function findProblem(
  value: unknown,
  path: string,
  ancestors: Set<object>,
  depth: number,
  inArray: boolean,
): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${value} at ${path}`;
    case 'undefined':
      return inArray ? `undefined at ${path}` : undefined;
    case 'bigint':
      return `a BigInt at ${path}`;
    case 'symbol':
      return `a symbol at ${path}`;
    case 'function':
      return `a function at ${path}`;
    default:
      return value === null
        ? undefined
        : findObjectProblem(value as object, path, ancestors, depth);
  }
}

function findObjectProblem(
  value: object,
  path: string,
  ancestors: Set<object>,
  depth: number,
): string | undefined {
  if (ancestors.has(value)) return `a circular reference at ${path}`;
  if (depth >= MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels at ${path}`;
  try {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
    const opaque = OPAQUE.find((type) => value instanceof type);
    if (opaque !== undefined) return `a ${opaque.name} at ${path}`;
    if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} at ${path}`;
    ancestors.add(value);
    const isArray = Array.isArray(value);
    for (const [key, item] of Object.entries(value)) {
      const problem = findProblem(item, `${path}.${key}`, ancestors, depth + 1, isArray);
      if (problem !== undefined) return problem;
    }
    ancestors.delete(value);
    return undefined;
  } catch {
    return `an unreadable value at ${path}`;
  }
}
