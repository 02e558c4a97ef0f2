import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import {
  getMetadataStorage,
  ValidationTypes,
  type MetadataStorage,
  type ValidatorConstraintInterface,
} from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type TypeMetadata = NonNullable<ReturnType<typeof defaultMetadataStorage.findTypeMetadata>>;

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/** Classes class-transformer converts to (or copies as) something other than a DTO instance. */
const BUILT_INS: ReadonlySet<unknown> = new Set([
  Object,
  Array,
  String,
  Number,
  Boolean,
  Date,
  Buffer,
  Map,
  Set,
  Promise,
  RegExp,
  Function,
  Symbol,
  BigInt,
]);

/** Design types under which class-transformer copies an array into a plain array. */
const PLAIN_ARRAY_TYPES: ReadonlySet<unknown> = new Set([undefined, Array, Object]);

/**
 * One validation rule of a property (`@IsString()`, `@Min(1)`, `@IsDefined()`, a custom
 * `@Validate()`), with the constraint instances class-validator itself would call.
 */
export interface RuleCheck {
  readonly property: string;
  readonly each: boolean;
  readonly constraints: unknown[];
  readonly validateIf?: (object: object, value: unknown) => boolean;
  readonly validators: readonly ValidatorConstraintInterface[];
}

/** What class-validator checks on one property and how class-transformer fills it. */
export interface PropertyPlan {
  readonly name: string;
  /** `@IsOptional()`, `@ValidateIf()`: the property is checked only when all hold. */
  readonly conditions: readonly ((object: object, value: unknown) => boolean)[];
  /** `@IsDefined()`, checked first as class-validator does. */
  readonly defined: readonly RuleCheck[];
  readonly rules: readonly RuleCheck[];
  /** `@ValidateNested()`: the value must be a valid DTO instance, or an array of them. */
  readonly nested: boolean;
  /** `@Type()`: the class class-transformer builds the value as. */
  readonly type?: TypeMetadata;
  /** Whether class-transformer copies an array given for it into a plain array. */
  readonly plainArrays: boolean;
}

/** A DTO class as the compiled validation sees it, its properties in class-validator's order. */
export interface DtoPlan {
  readonly target: new () => object;
  readonly properties: ReadonlyMap<string, PropertyPlan>;
  /** The same properties, as a list for the checks. */
  readonly checked: readonly PropertyPlan[];
}

/**
 * The plans of DTO classes, each compiled once, on first use, from class-validator's and
 * class-transformer's own metadata storage (with the options `ToolValidationPipe` validates
 * with: no groups, `always` off). A class gets no plan, and so stays with class-validator,
 * when it has no validation rules or uses what the compiled path does not reproduce: promise
 * or async validation, a class-transformer `@Transform()`, `@Expose()`, `@Exclude()`, a
 * discriminator, a `@Type()` to a built-in type, or an accessor in place of a property.
 *
 * @internal
 */
export class DtoPlans {
  private readonly plans = new Map<unknown, DtoPlan | null>();

  /** The plan of `target`, or `undefined` when class-validator must handle it. */
  planFor(target: unknown): DtoPlan | undefined {
    let plan = this.plans.get(target);
    if (plan === undefined) {
      plan = compileDtoPlan(target) ?? null;
      this.plans.set(target, plan);
    }
    return plan ?? undefined;
  }
}

function compileDtoPlan(target: unknown): DtoPlan | undefined {
  if (!isUserClass(target) || !transformsPlainly(target)) return undefined;
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(
    target,
    undefined as unknown as string,
    false,
    false,
  );
  if (metadatas.length === 0) return undefined;
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    const list = grouped.get(metadata.propertyName);
    if (list) list.push(metadata);
    else grouped.set(metadata.propertyName, [metadata]);
  }
  const properties = new Map<string, PropertyPlan>();
  for (const [name, list] of grouped) {
    const property = compileProperty(target, name, list, storage);
    if (property === undefined) return undefined;
    properties.set(name, property);
  }
  return { target, properties, checked: [...properties.values()] };
}

function compileProperty(
  target: new () => object,
  name: string,
  metadatas: readonly ValidationMetadata[],
  storage: MetadataStorage,
): PropertyPlan | undefined {
  const conditions: PropertyPlan['conditions'][number][] = [];
  const defined: RuleCheck[] = [];
  const rules: RuleCheck[] = [];
  let nested = false;
  for (const metadata of metadatas) {
    switch (metadata.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
        break;
      case ValidationTypes.IS_DEFINED:
      case ValidationTypes.CUSTOM_VALIDATION: {
        const check = ruleCheck(metadata, storage);
        if (check === undefined) return undefined;
        (metadata.type === ValidationTypes.IS_DEFINED ? defined : rules).push(check);
        break;
      }
      case ValidationTypes.NESTED_VALIDATION:
        nested = true;
        break;
      case ValidationTypes.WHITELIST:
        break;
      default:
        return undefined; // promise validation, or a type this version does not know
    }
  }
  if (!assignsPlainly(target, name)) return undefined;
  const type = defaultMetadataStorage.findTypeMetadata(target, name);
  if (type?.options?.discriminator || type?.reflectedType === Map) return undefined;
  return {
    name,
    conditions,
    defined,
    rules,
    nested,
    ...(type === undefined ? {} : { type }),
    plainArrays: PLAIN_ARRAY_TYPES.has(type?.reflectedType),
  };
}

function ruleCheck(metadata: ValidationMetadata, storage: MetadataStorage): RuleCheck | undefined {
  const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
  if (constraints.some((constraint) => constraint.async)) return undefined;
  return {
    property: metadata.propertyName,
    each: metadata.each === true,
    constraints: metadata.constraints,
    ...(metadata.validateIf === undefined ? {} : { validateIf: metadata.validateIf }),
    validators: constraints.map((constraint) => constraint.instance),
  };
}

/** A class of the user's, not a type class-transformer treats as a value. */
function isUserClass(target: unknown): target is new () => object {
  return typeof target === 'function' && !BUILT_INS.has(target);
}

/** No class-transformer decorator of the class changes which keys are copied, or how. */
function transformsPlainly(target: object): boolean {
  return (
    defaultMetadataStorage.getStrategy(target) === 'none' &&
    defaultMetadataStorage.getExposedMetadatas(target).length === 0 &&
    defaultMetadataStorage.getExcludedMetadatas(target).length === 0
  );
}

/**
 * class-transformer sets the property as given: nothing transforms it, and no accessor or
 * method of the class's prototypes stands in its place (class-transformer would skip it).
 */
function assignsPlainly(target: new () => object, name: string): boolean {
  if (defaultMetadataStorage.findTransformMetadatas(target, name, PLAIN_TO_CLASS).length > 0) {
    return false;
  }
  for (let proto: object | null = target.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    if (Object.getOwnPropertyDescriptor(proto, name)) return false;
  }
  return true;
}
