import { describe, expect, it } from '@jest/globals';
import { classifyError, InvalidInputError, type ValidationIssue } from '@toolshield/core';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  validate,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import fc from 'fast-check';
import { ToolValidationPipe } from '../../src/internal.js';
import { DtoJsonSchemaFactory } from '../../src/schema/dto-json-schema.js';
import { CompiledDtoValidation } from '../../src/validation/compiled/compiled-dto-validation.js';
import { withMissingRequiredProperties } from '../../src/validation/missing-required-properties.js';

type Kind =
  | 'string'
  | 'number'
  | 'int'
  | 'boolean'
  | 'in'
  | 'enum'
  | 'numericEnum'
  | 'strings'
  | 'nested'
  | 'nestedArray';

interface PropSpec {
  readonly name: string;
  readonly kind: Kind;
  readonly optional: boolean;
  readonly defined: boolean;
  /** Which bound decorators the property gets, and their arguments. */
  readonly low: number;
  readonly high: number;
  readonly bounds: readonly Bound[];
  readonly nested?: DtoSpec;
}

interface DtoSpec {
  readonly props: readonly PropSpec[];
  /** A generated class it extends (its rules are inherited). */
  readonly parent?: DtoSpec;
  /** Values its constructor sets before class-transformer assigns the arguments. */
  readonly defaults: Readonly<Record<string, unknown>>;
}

const NAMES = ['a', 'b', 'city', 'count', 'tags', 'near', 'items', 'units', 'zip', 'note'];
const UNITS = ['metric', 'imperial'];
const Color = { Red: 'red', Green: 'green' } as const;
enum Level {
  Low = 1,
  High = 2,
}

const BOUNDS = [
  'min',
  'max',
  'length',
  'pattern',
  'notEmpty',
  'positive',
  'even',
  'unlessSkip',
] as const;
type Bound = (typeof BOUNDS)[number];
const boundsArb = fc.subarray([...BOUNDS]);

/** A custom synchronous rule, registered as a user's own decorator would register it. */
const IsEven = (): PropertyDecorator => (target, propertyName) =>
  registerDecorator({
    name: 'isEven',
    target: target.constructor,
    propertyName: String(propertyName),
    validator: {
      validate: (value: unknown) => typeof value === 'number' && value % 2 === 0,
      defaultMessage: () => '$property must be even',
    },
  });

const propArb = (depth: number): fc.Arbitrary<PropSpec> => {
  const leaf: Kind[] = [
    'string',
    'number',
    'int',
    'boolean',
    'in',
    'enum',
    'numericEnum',
    'strings',
  ];
  const kinds: Kind[] = depth < 2 ? [...leaf, 'nested', 'nestedArray'] : leaf;
  return fc
    .record({
      name: fc.constantFrom(...NAMES),
      kind: fc.constantFrom(...kinds),
      optional: fc.boolean(),
      defined: fc.boolean(),
      low: fc.integer({ min: 0, max: 4 }),
      high: fc.integer({ min: 4, max: 12 }),
      bounds: boundsArb,
    })
    .chain((prop) =>
      prop.kind === 'nested' || prop.kind === 'nestedArray'
        ? dtoArb(depth + 1).map((nested) => ({ ...prop, nested }))
        : fc.constant(prop),
    );
};

/** `arbitrary` one time in `odds`, `undefined` the other times. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: odds - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const dtoArb = (depth = 0): fc.Arbitrary<DtoSpec> =>
  fc
    .record({
      props: fc.uniqueArray(propArb(depth), {
        minLength: 1,
        maxLength: 4,
        selector: (prop) => prop.name,
      }),
      parent: depth === 0 ? sometimes(dtoArb(1), 4) : fc.constant(undefined),
    })
    .chain(({ props, parent }) =>
      fc
        .tuple(
          ...props.map((prop) =>
            sometimes(
              valueArb(prop).filter((value) => !hasStrippedKey(value)),
              6,
            ),
          ),
        )
        .map((values) => ({
          props,
          ...(parent === undefined ? {} : { parent }),
          defaults: Object.fromEntries(
            props.flatMap((prop, i) => (values[i] === undefined ? [] : [[prop.name, values[i]]])),
          ),
        })),
    );

let classes = 0;

/** Builds the DTO class a spec describes, decorated as TypeScript would decorate it. */
function dtoClass(spec: DtoSpec): new () => object {
  const name = `GeneratedDto${++classes}`;
  const Base = spec.parent ? dtoClass(spec.parent) : Object;
  const defaults = JSON.stringify(spec.defaults);
  const target = {
    [name]: class extends Base {
      constructor() {
        super();
        Object.assign(this, JSON.parse(defaults));
      }
    },
  }[name] as new () => object;
  for (const prop of spec.props) decorate(target.prototype, prop);
  return target;
}

function decorate(proto: object, prop: PropSpec): void {
  const apply = (...decorators: PropertyDecorator[]) => {
    for (const decorator of decorators.reverse()) decorator(proto, prop.name);
  };
  const has = (bound: PropSpec['bounds'][number]) => prop.bounds.includes(bound);
  const nestedClass = prop.nested ? dtoClass(prop.nested) : Object;
  const designType =
    prop.kind === 'nested'
      ? nestedClass
      : prop.kind === 'nestedArray' || prop.kind === 'strings'
        ? Array
        : Object;
  Reflect.defineMetadata('design:type', designType, proto, prop.name);
  if (prop.optional) apply(IsOptional());
  if (prop.defined && !prop.optional) apply(IsDefined());
  switch (prop.kind) {
    case 'string':
      apply(IsString());
      if (has('length')) apply(Length(prop.low, prop.high));
      else {
        if (has('min')) apply(MinLength(prop.low));
        if (has('max')) apply(MaxLength(prop.high));
      }
      if (has('pattern')) apply(Matches(/^[a-z]+$/));
      if (has('notEmpty')) apply(IsNotEmpty());
      if (has('unlessSkip'))
        apply(ValidateIf((_object: object, value: unknown) => value !== 'skip'));
      break;
    case 'number':
    case 'int':
      apply(prop.kind === 'int' ? IsInt() : IsNumber());
      if (has('min')) apply(Min(prop.low));
      if (has('max')) apply(Max(prop.high));
      if (has('positive')) apply(IsPositive());
      if (has('even')) apply(IsEven());
      break;
    case 'boolean':
      apply(IsBoolean());
      break;
    case 'in':
      apply(IsIn(UNITS));
      break;
    case 'enum':
      apply(IsEnum(Color));
      break;
    case 'numericEnum':
      apply(IsEnum(Level));
      break;
    case 'strings':
      apply(IsArray(), IsString({ each: true }));
      if (has('max')) apply(ArrayMaxSize(prop.high), MaxLength(prop.high, { each: true }));
      if (has('min')) apply(ArrayMinSize(1));
      break;
    case 'nested':
      apply(
        ValidateNested(),
        Type(() => nestedClass),
      );
      break;
    case 'nestedArray':
      apply(
        IsArray(),
        ValidateNested({ each: true }),
        Type(() => nestedClass),
      );
      if (has('min')) apply(ArrayMinSize(1));
      break;
  }
}

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -20, max: 20 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), { maxLength: 3 }),
);

const lengthAround = (prop: PropSpec) =>
  fc
    .constantFrom(0, prop.low - 1, prop.low, prop.high, prop.high + 1, 40)
    .map((length) => 'abcxyz'.repeat(8).slice(0, Math.max(0, length)));

/** A value for a property: mostly plausible, often at a boundary, sometimes anything at all. */
function valueArb(prop: PropSpec): fc.Arbitrary<unknown> {
  const plausible = ((): fc.Arbitrary<unknown> => {
    switch (prop.kind) {
      case 'string':
        return fc.oneof(
          lengthAround(prop),
          fc.string({ maxLength: 14 }),
          fc.constantFrom('ABC 1', 'skip'),
        );
      case 'number':
      case 'int':
        return fc.constantFrom(
          prop.low - 1,
          prop.low,
          prop.high,
          prop.high + 1,
          0,
          -1,
          1.5,
          1e21,
          Number.MAX_SAFE_INTEGER + 2,
        );
      case 'boolean':
        return fc.boolean();
      case 'in':
      case 'enum':
        return fc.constantFrom('metric', 'imperial', 'red', 'green', 'kelvin', 'RED');
      case 'numericEnum':
        return fc.constantFrom(1, 2, 3, '1', 'Low');
      case 'strings':
        return fc.array(fc.oneof(lengthAround(prop), fc.integer()), { maxLength: 14 });
      case 'nested':
        return objectArb(prop.nested as DtoSpec);
      case 'nestedArray':
        return fc.array(fc.oneof(objectArb(prop.nested as DtoSpec), anyJson), { maxLength: 3 });
    }
  })();
  return fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });
}

const EXTRA_KEYS = ['extra', 'toString', 'constructor', '__proto__', 'valueOf', 'length'];

/** An argument object for a spec: properties present or left out, sometimes keys it does not declare. */
function objectArb(spec: DtoSpec): fc.Arbitrary<Record<string, unknown>> {
  const entries = spec.props.map((prop) =>
    fc.option(valueArb(prop), { nil: undefined }).map((value) => [prop.name, value] as const),
  );
  const extras = fc.uniqueArray(fc.tuple(fc.constantFrom(...EXTRA_KEYS), anyJson), {
    maxLength: 2,
    selector: ([key]) => key,
  });
  return fc
    .tuple(
      fc.tuple(...entries),
      fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extras }),
    )
    .map(([present, extra]) => {
      // through JSON text, as the executor hands arguments over (`__proto__` stays an own key)
      const members = [...present.filter(([, value]) => value !== undefined), ...extra].map(
        ([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`,
      );
      return JSON.parse(`{${members.join(',')}}`) as Record<string, unknown>;
    });
}

/** A fresh copy, as JSON text would give it (structuredClone would build it in another realm). */
const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A key Nest's pipe deletes from the value, which the compiled path leaves to it. */
const hasStrippedKey = (value: unknown): boolean =>
  /"(__proto__|constructor|prototype)":/.test(JSON.stringify(value));

const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/**
 * The parts under test and the reference, fresh for each generated DTO: the schema factory
 * reads every class's metadata once per instance, and classes keep being generated.
 */
function subjects() {
  const schemas = new DtoJsonSchemaFactory();
  const requiredOf = (dto: unknown) => schemas.requiredProperties(dto);
  return {
    requiredOf,
    compiled: new CompiledDtoValidation(requiredOf),
    pipe: new ToolValidationPipe(),
  };
}
type Subjects = ReturnType<typeof subjects>;

type Verdict =
  { valid: true; instance: object } | { valid: false; issues: readonly ValidationIssue[] };

/** class-validator's own verdict and issues: plainToInstance, validate(), the required walk. */
async function classValidatorVerdict(
  { requiredOf }: Subjects,
  target: new () => object,
  args: object,
): Promise<Verdict> {
  const instance = plainToInstance(target, jsonCopy(args));
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  const all = withMissingRequiredProperties(instance, errors, requiredOf);
  if (all.length === 0) return { valid: true, instance };
  const error = classifyError(all);
  expect(error).toBeInstanceOf(InvalidInputError);
  return { valid: false, issues: (error as InvalidInputError).issues };
}

/** What `ToolValidationPipe` (compiled path first) gives a tool for the same arguments. */
async function pipeVerdict(
  { pipe }: Subjects,
  target: new () => object,
  args: object,
): Promise<Verdict> {
  try {
    const instance = (await pipe.transform(jsonCopy(args), {
      type: 'body',
      metatype: target,
    })) as object;
    return { valid: true, instance };
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return { valid: false, issues: (error as InvalidInputError).issues };
  }
}

describe('ToolValidationPipe compiled path (property)', () => {
  it('gives class-validator verdict, issues and instance over generated DTOs and inputs', async () => {
    let proven = 0;
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(
        dtoArb().chain((spec) =>
          fc.tuple(fc.constant(spec), fc.array(objectArb(spec), { minLength: 1, maxLength: 10 })),
        ),
        async ([spec, inputs]) => {
          const target = dtoClass(spec);
          const parts = subjects();
          for (const args of inputs) {
            const expected = await classValidatorVerdict(parts, target, args);
            const actual = await pipeVerdict(parts, target, args);
            expect(actual).toStrictEqual(expected);
            // sound: never proves an invalid value valid
            const fast = parts.compiled.transform(target, jsonCopy(args));
            if (!expected.valid) expect(fast).toBeUndefined();
            // complete on what the executor hands over (it refuses the keys Nest would strip)
            if (hasStrippedKey(args)) continue;
            if (expected.valid) {
              proven++;
              expect(fast).toStrictEqual(expected.instance);
            } else {
              invalid++;
              expect(fast).toBeUndefined();
            }
          }
        },
      ),
      { numRuns: 100 },
    );
    // the generators reach both sides (a random run proves about one input in ten valid)
    expect(proven).toBeGreaterThan(20);
    expect(invalid).toBeGreaterThan(20);
    // every generated class stays in class-validator's storage, which each validate() walks
  }, 120_000);
});
