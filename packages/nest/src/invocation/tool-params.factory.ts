import type { ParamsFactory } from '@nestjs/core';
import { ToolParamtype } from '../toolshield.constants.js';

/**
 * Maps tool parameter kinds to the pipeline's call arguments `(args, call)`: `@ToolArgs()` gets
 * the arguments, `@ToolCall()` the call (a hedged attempt's own context, put in its place by
 * the attempt). @internal
 */
export class ToolParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    switch (type) {
      case ToolParamtype.ARGS:
        return args[0];
      case ToolParamtype.CALL:
        return args[1];
      default:
        return undefined;
    }
  }
}
