import type { ParamsFactory } from '@nestjs/core';
import { attemptCallOf } from '../policies/hedging/hedged-attempt-call.js';
import { ToolParamtype } from '../toolshield.constants.js';

/**
 * The value of a tool parameter of kind `type`, for a call with these arguments and context:
 * the arguments for `@ToolArgs()`, the context for `@ToolCall()`. Both lanes fill parameters
 * with it. @internal
 */
export function toolParamValue(type: number, args: unknown, call: unknown): unknown {
  switch (type) {
    case ToolParamtype.ARGS:
      return args;
    case ToolParamtype.CALL:
      return call;
    default:
      return undefined;
  }
}

/**
 * Maps tool parameter kinds to the pipeline's call arguments `(args, call)`; inside a hedged
 * attempt, `@ToolCall()` gets the attempt's own context. @internal
 */
export class ToolParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    return toolParamValue(
      type,
      args[0],
      type === ToolParamtype.CALL ? attemptCallOf(args[1]) : args[1],
    );
  }
}
