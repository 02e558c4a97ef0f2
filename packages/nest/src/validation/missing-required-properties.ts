import type { ValidationError } from 'class-validator';

/** The properties the published schema of a DTO class lists as required. */
export type RequiredPropertiesOf = (dto: unknown) => readonly string[];

/**
 * The validation errors class-validator found, plus one `isDefined` error for each property
 * the published schema requires and the value leaves out, at every level of nested DTOs
 * (class-validator skips an undefined nested DTO, so a required one could go missing
 * unnoticed). A property class-validator already reported is not reported twice. Errors for
 * nested levels are merged into the existing error of their parent property, in
 * class-validator's shape (`children`, array items by index).
 *
 * @param dto the transformed instance that was validated
 */
export function withMissingRequiredProperties(
  dto: object,
  errors: ValidationError[],
  requiredOf: RequiredPropertiesOf,
): ValidationError[] {
  return [...errors, ...missingIn(dto, errors, requiredOf)];
}

/**
 * Whether {@link withMissingRequiredProperties} would add an error for `dto` when
 * class-validator reported none: the same walk (required properties, then nested DTO
 * instances and arrays of them), stopping at the first property missing, building nothing.
 */
export function lacksRequiredProperty(dto: object, requiredOf: RequiredPropertiesOf): boolean {
  for (const property of requiredOf(dto.constructor)) {
    if (Reflect.get(dto, property) === undefined) return true;
  }
  for (const key of Object.keys(dto)) {
    const child: unknown = Reflect.get(dto, key);
    const lacking = (item: unknown) =>
      isDtoInstance(item) && lacksRequiredProperty(item, requiredOf);
    if (Array.isArray(child) ? child.some(lacking) : lacking(child)) return true;
  }
  return false;
}

function missingIn(
  value: object,
  reported: readonly ValidationError[],
  requiredOf: RequiredPropertiesOf,
): ValidationError[] {
  const added: ValidationError[] = [];
  for (const property of requiredOf(value.constructor)) {
    if (Reflect.get(value, property) !== undefined) continue;
    if (reported.some((error) => error.property === property)) continue;
    added.push(errorFor(property, { constraints: { isDefined: `${property} is required` } }));
  }
  for (const [property, child] of Object.entries(value)) {
    const nested = Array.isArray(child)
      ? itemsMissing(child, childrenOf(reported, property), requiredOf)
      : isDtoInstance(child)
        ? missingIn(child, childrenOf(reported, property), requiredOf)
        : [];
    mergeInto(reported, added, property, nested);
  }
  return added;
}

function itemsMissing(
  items: readonly unknown[],
  reported: readonly ValidationError[],
  requiredOf: RequiredPropertiesOf,
): ValidationError[] {
  const added: ValidationError[] = [];
  items.forEach((item, index) => {
    if (!isDtoInstance(item)) return;
    const property = String(index);
    mergeInto(
      reported,
      added,
      property,
      missingIn(item, childrenOf(reported, property), requiredOf),
    );
  });
  return added;
}

/** Adds `nested` under `property`: into its reported error when there is one, else as a new one. */
function mergeInto(
  reported: readonly ValidationError[],
  added: ValidationError[],
  property: string,
  nested: ValidationError[],
): void {
  if (nested.length === 0) return;
  const existing = reported.find((error) => error.property === property);
  if (existing) existing.children = [...(existing.children ?? []), ...nested];
  else added.push(errorFor(property, { children: nested }));
}

function childrenOf(errors: readonly ValidationError[], property: string): ValidationError[] {
  return errors.find((error) => error.property === property)?.children ?? [];
}

function errorFor(property: string, details: Partial<ValidationError>): ValidationError {
  return { property, children: [], ...details } as ValidationError;
}

/** An instance of a class (a nested DTO after transformation), not a plain object or array. */
function isDtoInstance(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) !== Object.prototype
  );
}
