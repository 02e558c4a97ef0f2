import { Injectable, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { classifyError } from '@toolshield/core';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import { DtoJsonSchemaFactory } from '../schema/dto-json-schema.js';
import { CompiledDtoValidation } from './compiled/compiled-dto-validation.js';
import { withMissingRequiredProperties } from './missing-required-properties.js';

/**
 * The default pipe of `@ToolArgs()`: validates and transforms the arguments into the DTO
 * class, enforcing what the published JSON Schema says. Unknown properties are refused at
 * every level (a model that invents fields learns which exist; the schema says
 * `additionalProperties: false`); every property the schema lists as `required` must be
 * present, a nested DTO (`@ValidateNested()`) included, which class-validator alone lets
 * through when it is left out; an `@IsOptional()` property may be left out or `null` (what
 * OpenAI's strict mode sends for it). Failures become `InvalidInputError` with one issue per
 * field. Values are not echoed back, so a secret the model pasted into the wrong field does not
 * travel further.
 *
 * Common DTOs take a compiled path, which reaches class-validator's verdict without its
 * per-call metadata lookups and promises; anything it cannot prove valid goes through
 * class-validator as before (ADR 0018). A subclass always goes through class-validator.
 *
 * @publicApi
 */
@Injectable()
export class ToolValidationPipe extends ValidationPipe {
  private readonly schemas = new DtoJsonSchemaFactory();
  private readonly required = new Map<unknown, readonly string[]>();
  private readonly compiled =
    this.constructor === ToolValidationPipe
      ? new CompiledDtoValidation((dto) => this.requiredOf(dto))
      : undefined;

  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => classifyError(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const instance =
      metadata.type === 'custom' ? undefined : this.provenValid(value, metadata.metatype);
    return instance ?? super.transform(value, metadata);
  }

  /**
   * The instance of `metatype` the compiled path builds from `value` and proves valid, at
   * once; `undefined` when only class-validator's path can tell.
   */
  private provenValid(value: unknown, metatype: unknown): object | undefined {
    // no plan exists for the types `toValidate()` passes through (String, Object, ...)
    return this.compiled?.transform(metatype, value);
  }

  protected override async validate(
    object: object,
    validatorOptions?: ValidatorOptions,
  ): Promise<ValidationError[]> {
    const errors = await super.validate(object, validatorOptions);
    return withMissingRequiredProperties(object, errors, (dto) => this.requiredOf(dto));
  }

  private requiredOf(dto: unknown): readonly string[] {
    let required = this.required.get(dto);
    if (required === undefined) {
      required = this.schemas.requiredProperties(dto);
      this.required.set(dto, required);
    }
    return required;
  }
}
