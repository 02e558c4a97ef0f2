import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, InvalidInputError } from '@toolshield/nest';
import { IsString, Length } from 'class-validator';
import { evaluateArithmetic } from './arithmetic.js';

/** Arguments of `calculate`. */
export class CalculateArgs {
  @IsString() @Length(1, 200) expression!: string;
}

/** Arithmetic on numbers: `+ - * /`, parentheses, unary minus. */
@Injectable()
export class CalculatorTools {
  @Tool({
    name: 'calculate',
    description:
      'Evaluates an arithmetic expression with + - * / and parentheses, e.g. "200 * 1.08".',
    idempotent: true,
    annotations: { readOnlyHint: true },
  })
  calculate(@ToolArgs() args: CalculateArgs): { expression: string; value: number } {
    const evaluated = evaluateArithmetic(args.expression);
    if (!evaluated.ok) {
      throw new InvalidInputError(`Cannot evaluate "${args.expression}": ${evaluated.error}`, {
        issues: [{ path: 'expression', message: evaluated.error }],
      });
    }
    return { expression: args.expression, value: evaluated.value };
  }
}
