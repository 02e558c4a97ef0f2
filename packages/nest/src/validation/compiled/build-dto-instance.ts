import type { DtoPlan, DtoPlans, PropertyPlan } from './dto-plan.js';

/** Deeper than this, class-validator decides (JSON arguments are held to 64 levels). */
const MAX_DEPTH = 64;

/** Keys Nest's `ValidationPipe` strips from the value (and class-transformer skips). */
const STRIPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The instance `plainToInstance(plan.target, value)` builds (class-transformer, default
 * options), for plain JSON data: a `new` instance of the class with each key of the value
 * assigned, a nested DTO (`@Type(() => Address)`) built the same way, arrays and untyped
 * objects copied, keys class-transformer skips (`toString`, methods) dropped as it drops
 * them. Returns `undefined` as soon as the value holds anything else (a key the class does
 * not declare, `undefined`, a `Date`, a class instance, a stripped key, a sparse
 * array, deeper than 64 levels): class-validator then handles the value from the start.
 * The value is never modified.
 *
 * @internal
 */
export function buildDtoInstance(
  plans: DtoPlans,
  plan: DtoPlan,
  value: Record<string, unknown>,
  depth = 1,
): object | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const instance = new plan.target() as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (STRIPPED_KEYS.has(key)) return undefined;
    const property = plan.properties.get(key);
    if (property === undefined) {
      if (isSkipped(plan.target.prototype, instance, key)) continue;
      return undefined; // an unknown property: class-validator refuses it
    }
    if (instance[key] instanceof Function) continue; // class-transformer leaves methods alone
    const item = value[key];
    const built =
      property.type === undefined
        ? copyPlain(item, depth + 1)
        : buildTyped(plans, property, typeOf(property, instance, value), item, depth + 1);
    if (built === undefined) return undefined;
    instance[key] = built;
  }
  return instance;
}

/**
 * class-transformer does not assign a key that the class's prototype has without a setter,
 * or whose current value is a function (`toString`, a method): the key is dropped.
 */
function isSkipped(prototype: object, instance: Record<string, unknown>, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return (descriptor !== undefined && !descriptor.set) || instance[key] instanceof Function;
}

/** The class `@Type()` names, asked as class-transformer asks it. */
function typeOf(property: PropertyPlan, instance: object, value: object): unknown {
  const type = property.type;
  return type?.typeFunction
    ? type.typeFunction({ newObject: instance, object: value, property: property.name })
    : type?.reflectedType;
}

function buildTyped(
  plans: DtoPlans,
  property: PropertyPlan,
  type: unknown,
  item: unknown,
  depth: number,
): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const plan = plans.planFor(type);
  if (plan === undefined) return undefined;
  if (isPrimitive(item)) return item;
  if (Array.isArray(item)) {
    if (!property.plainArrays && !becomesPlainArray(property.type?.reflectedType)) return undefined;
    const copy: unknown[] = [];
    for (const element of item as unknown[]) {
      const built = buildTyped(plans, ARRAY_ITEM, type, element, depth + 1);
      if (built === undefined) return undefined;
      copy.push(built);
    }
    return copy;
  }
  return isPlainObject(item) ? buildDtoInstance(plans, plan, item, depth) : undefined;
}

/**
 * class-transformer builds an array given for a property of another design type (a
 * `@Type(() => Address) address: Address` sent as `[]`) by `new`-ing that type, and keeps a
 * plain array when what it built can neither `push` nor `add`.
 */
function becomesPlainArray(designType: unknown): boolean {
  if (typeof designType !== 'function') return false;
  const built: unknown = new (designType as new () => object)();
  return (
    !(built instanceof Set) && !(typeof built === 'object' && built !== null && 'push' in built)
  );
}

/** Items of an array are arrays or instances again; class-transformer copies inner arrays plainly. */
const ARRAY_ITEM = { plainArrays: true } as PropertyPlan;

function copyPlain(item: unknown, depth: number): unknown {
  if (isPrimitive(item)) return item;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(item)) {
    const copy: unknown[] = [];
    for (const element of item as unknown[]) {
      const built = copyPlain(element, depth + 1);
      if (built === undefined) return undefined;
      copy.push(built);
    }
    return copy;
  }
  if (!isPlainObject(item)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    if (STRIPPED_KEYS.has(key)) return undefined;
    if (key in Object.prototype) continue; // class-transformer skips `toString`, `valueOf`, ...
    const built = copyPlain(item[key], depth + 1);
    if (built === undefined) return undefined;
    copy[key] = built;
  }
  return copy;
}

function isPrimitive(item: unknown): boolean {
  return (
    item === null ||
    typeof item === 'string' ||
    typeof item === 'number' ||
    typeof item === 'boolean'
  );
}

/** An object of `Object.prototype`, as JSON text and the executor's argument copies make them. */
export function isPlainObject(item: unknown): item is Record<string, unknown> {
  return (
    typeof item === 'object' && item !== null && Object.getPrototypeOf(item) === Object.prototype
  );
}
