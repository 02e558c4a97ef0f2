import type { ParamsFactory } from '@nestjs/core';
import { attemptCallOf } from '../policies/hedging/hedged-attempt-call.js';
import { ToolParamtype } from '../toolshield.constants.js';

/**
 * Maps tool parameter kinds to the pipeline's call arguments `(args, call)`; inside a hedged
 * attempt, `@ToolCall()` gets the attempt's own context. @internal
 */
export class ToolParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    switch (type) {
      case ToolParamtype.ARGS:
        return args[0];
      case ToolParamtype.CALL:
        return attemptCallOf(args[1]);
      default:
        return undefined;
    }
  }
}
