import type { InvalidInputError } from '../errors/invalid-input.error.js';
import { FORBIDDEN_KEYS } from './find-argument-hazard.js';
import { rejectedArguments } from './rejected-arguments.js';

/**
 * Copies arguments built in code (not parsed from JSON) as plain JSON data, or throws an
 * `InvalidInputError` naming the first thing that is not, with its path: objects must have
 * `Object.prototype` or a `null` prototype, arrays `Array.prototype` and no holes; values are
 * strings, finite numbers, booleans, `null`, such objects and arrays. Every own key is
 * looked at, non-enumerable and symbol keys included: `__proto__`, `constructor` and
 * `prototype` are refused as they are in JSON text, and so are symbol keys, hidden
 * (non-enumerable) properties, getters and setters (never called), cycles, and nesting
 * deeper than `maxDepth` (the root is depth 1). The copy is what the tool gets, so a proxy or
 * a later change by the caller cannot slip anything past the check.
 */
export function copyPlainArguments(root: object, maxDepth: number): Record<string, unknown> {
  return new PlainDataCopier(maxDepth).object(root, '', 1) as Record<string, unknown>;
}

class PlainDataCopier {
  private readonly ancestors = new Set<object>();

  constructor(private readonly maxDepth: number) {}

  object(value: object, path: string, depth: number): object {
    if (depth > this.maxDepth) {
      throw hazard(path, `nested deeper than ${this.maxDepth} levels`, 'maxDepth');
    }
    if (this.ancestors.has(value)) {
      throw hazard(path, 'refers back to an object that contains it (a cycle)', 'cycle');
    }
    const isArray = Array.isArray(value);
    assertPlainPrototype(value, isArray, path);
    this.ancestors.add(value);
    const copy: Record<string, unknown> | unknown[] = isArray ? [] : {};
    let items = 0;
    for (const key of Reflect.ownKeys(value)) {
      if (isArray && key === 'length') continue;
      const at = typeof key === 'string' ? joinPath(path, key) : path;
      const [name, item] = this.property(value, key, at, isArray);
      (copy as Record<string, unknown>)[name] = this.value(item, at, depth);
      items++;
    }
    if (isArray && items !== (value as unknown[]).length) {
      throw hazard(path, 'an array with holes is not plain data', 'plainData');
    }
    this.ancestors.delete(value);
    return copy;
  }

  private property(
    owner: object,
    key: string | symbol,
    path: string,
    isArray: boolean,
  ): [string, unknown] {
    if (typeof key === 'symbol') {
      throw hazard(path, `the symbol key ${key.toString()} is not allowed`, 'plainData');
    }
    if (FORBIDDEN_KEYS.has(key)) {
      throw hazard(path, `the key '${key}' is not allowed`, 'forbiddenKey');
    }
    if (isArray && !/^(0|[1-9]\d*)$/.test(key)) {
      throw hazard(path, 'an array may hold only its items', 'plainData');
    }
    const descriptor = Reflect.getOwnPropertyDescriptor(owner, key);
    if (descriptor === undefined || !('value' in descriptor)) {
      throw hazard(path, 'a getter or setter is not plain data', 'plainData');
    }
    if (!descriptor.enumerable) {
      throw hazard(path, 'a hidden (non-enumerable) property is not plain data', 'plainData');
    }
    return [key, descriptor.value];
  }

  private value(value: unknown, path: string, depth: number): unknown {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        if (Number.isFinite(value)) return value;
        throw hazard(path, `${value} is not a finite number`, 'plainData');
      case 'object':
        return value === null ? null : this.object(value, path, depth + 1);
      case 'undefined':
        throw hazard(path, 'undefined is not plain data (leave the key out)', 'plainData');
      default:
        throw hazard(path, `a ${typeof value} is not plain data`, 'plainData');
    }
  }
}

function assertPlainPrototype(value: object, isArray: boolean, path: string): void {
  const prototype: unknown = Reflect.getPrototypeOf(value);
  const plain = isArray
    ? prototype === Array.prototype
    : prototype === Object.prototype || prototype === null;
  if (!plain) throw hazard(path, `${describeNonPlain(prototype)} is not plain data`, 'plainData');
}

/** Names what an object is from its prototype, without running any of its code. */
function describeNonPlain(prototype: unknown): string {
  const constructor =
    typeof prototype === 'object' && prototype !== null
      ? Reflect.getOwnPropertyDescriptor(prototype, 'constructor')?.value
      : undefined;
  const name: unknown = typeof constructor === 'function' ? constructor.name : undefined;
  return typeof name === 'string' && name !== '' && name !== 'Object'
    ? `an instance of ${name}`
    : 'an object with an inherited prototype';
}

function joinPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function hazard(path: string, message: string, constraint: string): InvalidInputError {
  return rejectedArguments({ path, message, constraint });
}
