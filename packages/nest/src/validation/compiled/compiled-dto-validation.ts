import {
  lacksRequiredProperty,
  type RequiredPropertiesOf,
} from '../missing-required-properties.js';
import { buildDtoInstance, isPlainObject } from './build-dto-instance.js';
import { DtoPlans } from './dto-plan.js';
import { isValidDto } from './dto-verdict.js';

/**
 * The fast path of `ToolValidationPipe`: for plain JSON arguments and a DTO class it has a
 * plan for, builds the instance class-transformer would build and proves, without a promise,
 * that class-validator would accept it and that no required property is missing. Anything it
 * cannot prove (an invalid value included) returns `undefined`, and the pipe runs
 * class-validator from the start, which writes the report: the verdict, the instance and the
 * messages are class-validator's either way (ADR 0018).
 */
export class CompiledDtoValidation {
  private readonly plans = new DtoPlans();

  constructor(private readonly requiredOf: RequiredPropertiesOf) {}

  /** The validated instance of `metatype` built from `value`, or `undefined`. */
  transform(metatype: unknown, value: unknown): object | undefined {
    if (!isPlainObject(value)) return undefined;
    try {
      const plan = this.plans.planFor(metatype);
      if (plan === undefined) return undefined;
      const instance = buildDtoInstance(this.plans, plan, value);
      if (instance === undefined || !isValidDto(this.plans, plan, instance)) return undefined;
      return lacksRequiredProperty(instance, this.requiredOf) ? undefined : instance;
    } catch {
      return undefined; // what throws here (a constructor, a rule) throws on class-validator's path too
    }
  }
}
