import type { DtoPlan, DtoPlans, PropertyPlan, RuleCheck } from './dto-plan.js';

/**
 * Whether class-validator's `validate(instance, { whitelist, forbidNonWhitelisted,
 * forbidUnknownValues })` would find no error: the same walk as class-validator's executor
 * (unknown properties, conditions, `@IsDefined()`, the rules with `each`, nested DTOs and
 * arrays of them), calling the same constraint instances with the same arguments, on
 * metadata read once per class. `false` means "not proven valid": class-validator then
 * decides and writes the report. A rule answering with a promise also gives `false`.
 *
 * @internal
 */
export function isValidDto(plans: DtoPlans, plan: DtoPlan, object: object): boolean {
  for (const key of Object.keys(object)) {
    if (!plan.properties.has(key)) return false;
  }
  for (const property of plan.checked) {
    const value = (object as Record<string, unknown>)[property.name];
    if (!meetsConditions(property.conditions, object, value)) continue;
    if (value instanceof Set || value instanceof Map) return false;
    if (!allPass(property.defined, object, value) || !allPass(property.rules, object, value)) {
      return false;
    }
    if (property.nested && !isValidNested(plans, value)) return false;
  }
  return true;
}

function meetsConditions(
  conditions: PropertyPlan['conditions'],
  object: object,
  value: unknown,
): boolean {
  for (const condition of conditions) if (!condition(object, value)) return false;
  return true;
}

function allPass(checks: readonly RuleCheck[], object: object, value: unknown): boolean {
  for (const check of checks) {
    if (check.validateIf && !check.validateIf(object, value)) continue;
    const args = {
      targetName: object.constructor?.name,
      property: check.property,
      object,
      value,
      constraints: check.constraints,
    };
    for (const validator of check.validators) {
      const passed =
        check.each && Array.isArray(value)
          ? value.every((item) => isTrue(validator.validate(item, args)))
          : isTrue(validator.validate(value, args));
      if (!passed) return false;
    }
  }
  return true;
}

/** A synchronous pass; a promise is left to class-validator. */
function isTrue(result: unknown): boolean {
  return Boolean(result) && typeof (result as { then?: unknown }).then !== 'function';
}

function isValidNested(plans: DtoPlans, value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.every((item) => isValidNested(plans, item));
  if (!(value instanceof Object) || value instanceof Set || value instanceof Map) return false;
  const plan = plans.planFor(value.constructor);
  return plan !== undefined && isValidDto(plans, plan, value);
}
