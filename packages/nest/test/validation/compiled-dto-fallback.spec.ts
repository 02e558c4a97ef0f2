import { describe, expect, it, jest } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { InvalidInputError } from '@toolshield/core';
import { Transform, Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Length,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ToolValidationPipe } from '../../src/internal.js';

class Quantity {
  @IsInt() @Min(1) amount!: number;
}

class OrderArgs {
  @IsString() @Length(2, 20) sku!: string;
  @ValidateNested() @Type(() => Quantity) quantity!: Quantity;
  @IsOptional() @IsString() note?: string;
}

@ValidatorConstraint({ name: 'isFreeName', async: true })
class IsFreeName implements ValidatorConstraintInterface {
  async validate(value: unknown) {
    return value !== 'taken';
  }
  defaultMessage() {
    return '$property is already taken';
  }
}

class SignupArgs {
  @IsString() @Validate(IsFreeName) name!: string;
}

class TrimmedArgs {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(2, 20)
  city!: string;
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({
  type: 'body',
  metatype,
});

/** The class-validator call of a pipe (its `validate` step), watched. */
const watchClassValidator = (pipe: ToolValidationPipe) =>
  jest.spyOn(pipe as unknown as { validate: () => Promise<unknown> }, 'validate');

async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(InvalidInputError);
  return (error as InvalidInputError).issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('ToolValidationPipe: compiled path and class-validator', () => {
  it('proves a common DTO valid without calling class-validator, with the same instances', async () => {
    const pipe = new ToolValidationPipe();
    const classValidator = watchClassValidator(pipe);
    const args = await pipe.transform({ sku: 'A-1', quantity: { amount: 2 } }, body(OrderArgs));
    expect(args).toBeInstanceOf(OrderArgs);
    expect((args as OrderArgs).quantity).toBeInstanceOf(Quantity);
    expect(args).toStrictEqual(
      Object.assign(new OrderArgs(), {
        sku: 'A-1',
        quantity: Object.assign(new Quantity(), { amount: 2 }),
      }),
    );
    expect(classValidator).not.toHaveBeenCalled();
  });

  it("leaves an invalid value to class-validator, whose report is the failure's", async () => {
    const pipe = new ToolValidationPipe();
    const classValidator = watchClassValidator(pipe);
    await expect(
      issuesOf(pipe.transform({ sku: 'A', quantity: { amount: 0 }, extra: 1 }, body(OrderArgs))),
    ).resolves.toEqual([
      'extra: should not exist',
      'sku: must be longer than or equal to 2 characters',
      'quantity.amount: must not be less than 1',
    ]);
    expect(classValidator).toHaveBeenCalledTimes(1);
  });

  it('falls back to class-validator for a DTO with an async validator', async () => {
    const pipe = new ToolValidationPipe();
    const classValidator = watchClassValidator(pipe);
    await expect(pipe.transform({ name: 'free' }, body(SignupArgs))).resolves.toBeInstanceOf(
      SignupArgs,
    );
    await expect(issuesOf(pipe.transform({ name: 'taken' }, body(SignupArgs)))).resolves.toEqual([
      'name: is already taken',
    ]);
    expect(classValidator).toHaveBeenCalledTimes(2);
  });

  it('falls back to class-validator and class-transformer for a DTO with @Transform()', async () => {
    const pipe = new ToolValidationPipe();
    const classValidator = watchClassValidator(pipe);
    await expect(pipe.transform({ city: '  Paris  ' }, body(TrimmedArgs))).resolves.toStrictEqual(
      Object.assign(new TrimmedArgs(), { city: 'Paris' }),
    );
    expect(classValidator).toHaveBeenCalledTimes(1);
  });

  it('falls back to class-validator for values that are not plain JSON data', async () => {
    const pipe = new ToolValidationPipe();
    const classValidator = watchClassValidator(pipe);
    await expect(
      issuesOf(
        pipe.transform({ sku: 'A-1', quantity: { amount: 2 }, note: new Date(0) }, body(OrderArgs)),
      ),
    ).resolves.toEqual(['note: must be a string']);
    expect(classValidator).toHaveBeenCalledTimes(1);
  });

  it('always takes class-validator in a subclass, which may have changed any step', async () => {
    class AuditedPipe extends ToolValidationPipe {}
    const pipe = new AuditedPipe();
    const classValidator = watchClassValidator(pipe);
    await expect(
      pipe.transform({ sku: 'A-1', quantity: { amount: 2 } }, body(OrderArgs)),
    ).resolves.toBeInstanceOf(OrderArgs);
    expect(classValidator).toHaveBeenCalledTimes(1);
  });
});
