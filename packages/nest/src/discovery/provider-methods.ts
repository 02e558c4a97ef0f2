import type { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import { TOOL_METADATA } from '../toolshield.constants.js';

type Method = (...args: unknown[]) => unknown;

/** One method of a provider instance, as discovery finds it. @publicApi */
export interface ProviderMethod {
  readonly wrapper: ReturnType<DiscoveryService['getProviders']>[number];
  readonly instance: object;
  readonly prototype: Record<string, Method>;
  readonly methodName: string;
  /** The unbound prototype method (enhancer and `@Tool()` metadata live on it). */
  readonly method: Method;
}

/**
 * Every method of every provider instance of the application (aliases skipped), for modules
 * that, like toolshield's own discovery, read decorators off provider methods at startup.
 *
 * @publicApi
 */
export function* providerMethods(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): Generator<ProviderMethod> {
  for (const wrapper of discovery.getProviders()) {
    const instance: unknown = wrapper.instance;
    if (wrapper.isAlias || typeof instance !== 'object' || instance === null) continue;
    const prototype = Object.getPrototypeOf(instance) as Record<string, Method> | null;
    if (!prototype) continue;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      yield { wrapper, instance, prototype, methodName, method: prototype[methodName] as Method };
    }
  }
}

/** The `@Tool()` options of a method, if it is a tool. @publicApi */
export function toolOptionsOf(method: unknown): ToolOptions | undefined {
  return typeof method === 'function' ? Reflect.getMetadata(TOOL_METADATA, method) : undefined;
}

/** The name a `@Tool()` method is registered under (its `name` option, else its method name). @publicApi */
export function toolNameOf(method: unknown, methodName: string): string | undefined {
  const options = toolOptionsOf(method);
  return options && (options.name ?? methodName);
}
