import { EXCEPTION_FILTERS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import type { ExceptionFilter, NestInterceptor } from '@nestjs/common';

type Method = (...args: unknown[]) => unknown;

/**
 * Makes the function Nest builds a tool's pipeline from: a twin of the tool method that
 * carries all of the method's enhancer metadata plus toolshield's interceptors (innermost,
 * after the user's) and failure filter (after the user's method and class filters).
 *
 * The user's method is never modified, so two applications in one process (tests) do not
 * stack interceptors on it. Nest reads enhancers off this function and parameter metadata
 * off the class, and calls it with the real instance as `this`.
 *
 * @internal
 */
export function createToolHandler(
  method: Method,
  hostClass: object,
  interceptors: readonly NestInterceptor[],
  filter: ExceptionFilter,
): Method {
  const handler = function toolHandler(this: unknown, ...args: unknown[]) {
    return method.apply(this, args);
  };
  Object.defineProperty(handler, 'name', { value: method.name });
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), handler);
  }
  const own = <T>(key: string, target: object): T[] => Reflect.getMetadata(key, target) ?? [];
  Reflect.defineMetadata(
    INTERCEPTORS_METADATA,
    [...own(INTERCEPTORS_METADATA, method), ...interceptors],
    handler,
  );
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
