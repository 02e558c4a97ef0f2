import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants.js';
import type { ExceptionFilter } from '@nestjs/common';
import { toolCallState } from '../execution/tool-call-state.js';
import type { PolicyChain } from '../policies/layers/policy-chain.js';
import { runningCallOf } from './running-call.js';

type Method = (...args: unknown[]) => unknown;

/**
 * Makes the function Nest builds a tool's pipeline from: a twin of the tool method that
 * carries all of the method's enhancer metadata plus toolshield's failure filter (after the
 * user's method and class filters), and that runs the tool's policies around the method once
 * Nest's guards, interceptors and pipes have let the call through. Each attempt re-runs the
 * method with the parameters Nest resolved; the policies are built once per tool by
 * `policiesAround`, given the handler (what `context.getHandler()` returns).
 *
 * The user's method is never modified, so two applications in one process (tests) do not
 * stack filters on it. Nest reads enhancers off this function and parameter metadata off the
 * class, and calls it with the real instance as `this`.
 *
 * @internal
 */
export function createToolHandler(
  method: Method,
  hostClass: object,
  filter: ExceptionFilter,
  policiesAround: (handler: Method) => PolicyChain,
): Method {
  const handler = function toolHandler(this: unknown, ...params: unknown[]): unknown {
    const call = runningCallOf();
    const state = toolCallState(call);
    // Not a call the executor started (no policies to apply): the method, as Nest would call it.
    if (call === undefined || state === undefined) return method.apply(this, params);
    state.methodParams = params;
    return policies(call, state);
  };
  const policies = policiesAround(handler);
  Object.defineProperty(handler, 'name', { value: method.name });
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), handler);
  }
  const own = <T>(key: string, target: object): T[] => Reflect.getMetadata(key, target) ?? [];
  // Nest tries filters in reverse: method filters last-declared first, then class, then global.
  Reflect.defineMetadata(
    EXCEPTION_FILTERS_METADATA,
    [
      filter,
      ...own(EXCEPTION_FILTERS_METADATA, hostClass),
      ...own(EXCEPTION_FILTERS_METADATA, method),
    ],
    handler,
  );
  return handler;
}
