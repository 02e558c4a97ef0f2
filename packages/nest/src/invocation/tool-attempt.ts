import type { NestInterceptor } from '@nestjs/common';
import { InterceptorsConsumer } from '@nestjs/core/interceptors/interceptors-consumer.js';
import { isObservable, lastValueFrom } from 'rxjs';
import type { MutableToolCallContext, ToolCallState } from '../execution/tool-call-state.js';
import { HedgedAttemptCall, runAsAttempt } from '../policies/hedging/hedged-attempt-call.js';
import type { InnerRun } from '../policies/layers/tool-policy-layer.js';
import { TOOL_CONTEXT_TYPE } from '../toolshield.constants.js';

type Method = (...args: unknown[]) => unknown;

/** The tool method of one tool, as the innermost part of its policies runs it. @internal */
export interface AttemptTarget {
  readonly instance: object;
  readonly method: Method;
  /** The function Nest built the pipeline from: what `context.getHandler()` returns. */
  readonly handler: Method;
  /** The method takes the call's context after its own parameters (the approval gate's twin). */
  readonly takesCall: boolean;
  /** Interceptors another module put between the policies and the method (chaos). */
  readonly innermost: readonly NestInterceptor[];
}

/**
 * One attempt of a tool call: the method with the parameters Nest resolved for the call (a
 * hedged attempt's own context in place of the call's), through the innermost interceptors
 * when there are any. Like Nest's pipeline, it takes the last value of an Observable. Promise
 * callbacks rather than an async function: this stays alive while the call runs, and a
 * suspended async function holds more memory per call in flight.
 *
 * @internal
 */
export function createAttempt(target: AttemptTarget): InnerRun {
  const { instance, method, innermost, takesCall } = target;
  const callMethod = (call: MutableToolCallContext, state: ToolCallState): Promise<unknown> => {
    let value: unknown;
    try {
      value = method.apply(instance, paramsFor(call, state, takesCall));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(value).then(lastValueIfObservable);
  };
  if (innermost.length === 0) return callMethod;
  // Nest's own chaining, with the context an interceptor of a controller method would get.
  const interceptors = [...innermost];
  const consumer = new InterceptorsConsumer();
  return (call, state) =>
    runAsAttempt(call, () =>
      consumer
        .intercept(
          interceptors,
          [state.args, call instanceof HedgedAttemptCall ? call.of : call],
          instance,
          target.handler,
          () => callMethod(call, state),
          TOOL_CONTEXT_TYPE,
        )
        .then(lastValueIfObservable),
    );
}

/**
 * The method's parameters for `call`: a hedged attempt gets its own context for `@ToolCall()`,
 * and a method that takes the call gets it after them.
 */
function paramsFor(call: MutableToolCallContext, state: ToolCallState, takesCall: boolean) {
  const resolved = state.methodParams ?? [state.args, call];
  const params =
    call instanceof HedgedAttemptCall
      ? resolved.map((param) => (param === call.of ? call : param))
      : resolved;
  return takesCall ? [...params, call] : params;
}

/** Like Nest's pipeline: an Observable's last value (undefined when it completes empty). */
function lastValueIfObservable(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value, { defaultValue: undefined }) : value;
}
