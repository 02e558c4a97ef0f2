import type { ExecutionContext } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { attemptCallOf } from './hedged-attempt-call.js';

/**
 * The context of the tool call an interceptor runs for. Interceptors between toolshield's
 * policies and the method (`ToolPipeline.useInnermost`, as the chaos module's) run once per
 * attempt, and a hedged tool runs two attempts at once, each with its own `signal`: this
 * gives the attempt's own context there, and the call's (`context.getArgByIndex(1)`)
 * everywhere else.
 *
 * @example
 * intercept(context: ExecutionContext, next: CallHandler) {
 *   const call = currentToolCall(context);
 *   return from(slowDown(call.signal)).pipe(switchMap(() => next.handle()));
 * }
 * @publicApi
 */
export function currentToolCall(context: ExecutionContext): ToolCallContext {
  return attemptCallOf(context.getArgByIndex<ToolCallContext>(1)) as ToolCallContext;
}
