import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RetryOptions, ToolDefinition } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { resolveToolPolicies } from '../policies/tool-policies.js';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import { DtoJsonSchemaFactory } from '../schema/dto-json-schema.js';
import { RETRYABLE_METADATA, TOOLSHIELD_RANDOM, ToolParamtype } from '../toolshield.constants.js';
import {
  INVALID_TOOL_NAME,
  MISSING_TOOL_DESCRIPTION,
  REQUEST_SCOPED_TOOL,
} from '../toolshield.messages.js';
import { providerMethods, toolOptionsOf } from './provider-methods.js';
import { assertToolOptions } from '../options/assert-tool-options.js';
import { ToolInvokerFactory } from '../invocation/tool-invoker.factory.js';

type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];
type Method = (...args: unknown[]) => unknown;

const PORTABLE_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Finds every `@Tool()` method at bootstrap, checks it, builds its invoker once (see
 * {@link ToolInvokerFactory}) and registers it.
 *
 * @internal
 */
@Injectable()
export class ToolExplorer implements OnApplicationBootstrap {
  private readonly logger = new Logger('ToolShield');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ToolRegistry,
    private readonly invokers: ToolInvokerFactory,
    @InjectToolShieldOptions() private readonly moduleOptions: ToolShieldModuleOptions,
    @Inject(TOOLSHIELD_RANDOM) private readonly random: () => number,
  ) {}

  onApplicationBootstrap(): void {
    const schemas = new DtoJsonSchemaFactory();
    for (const { wrapper, instance, prototype, methodName, method } of providerMethods(
      this.discovery,
      this.scanner,
    )) {
      const options = toolOptionsOf(method);
      if (options) this.register(wrapper, instance, prototype, methodName, options, schemas);
    }
    this.logger.log(`Registered ${this.registry.names().length} tool(s)`);
  }

  private register(
    wrapper: ProviderWrapper,
    instance: object,
    prototype: Record<string, Method>,
    methodName: string,
    options: ToolOptions,
    schemas: DtoJsonSchemaFactory,
  ): void {
    const source = `${instance.constructor.name}.${methodName}`;
    if (!wrapper.isDependencyTreeStatic()) throw new Error(REQUEST_SCOPED_TOOL(source));
    assertToolOptions(
      options,
      this.reflector.get(RETRYABLE_METADATA, prototype[methodName]),
      methodName,
    );
    const name = options.name ?? methodName;
    if (!PORTABLE_TOOL_NAME.test(name)) throw new Error(INVALID_TOOL_NAME(name, source));
    if (!options.description?.trim()) throw new Error(MISSING_TOOL_DESCRIPTION(name, source));

    const method = prototype[methodName];
    const retryable = this.reflector.get<RetryOptions | undefined>(RETRYABLE_METADATA, method);
    const policies = resolveToolPolicies(
      name,
      options,
      retryable,
      this.moduleOptions.defaults,
      this.random,
    );
    const { lane, invoke } = this.invokers.create(instance, methodName, method, policies);

    this.registry.register({
      name,
      source,
      options,
      policies,
      lane,
      invoke,
      definition: this.definition(name, options, instance, methodName, schemas),
    });
  }

  private definition(
    name: string,
    options: ToolOptions,
    instance: object,
    methodName: string,
    schemas: DtoJsonSchemaFactory,
  ): ToolDefinition {
    const inputSchema = options.inputSchema ?? schemas.create(this.argsType(instance, methodName));
    return {
      name,
      description: options.description,
      inputSchema,
      ...(options.annotations ? { annotations: options.annotations } : {}),
    };
  }

  /** The declared type of the `@ToolArgs()` parameter, if any. */
  private argsType(instance: object, methodName: string): unknown {
    const params: Record<string, { index: number }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, instance.constructor, methodName) ?? {};
    const args = Object.entries(params).find(([key]) => key.startsWith(`${ToolParamtype.ARGS}:`));
    const paramTypes: unknown[] =
      Reflect.getMetadata('design:paramtypes', instance, methodName) ?? [];
    return args ? paramTypes[args[1].index] : undefined;
  }
}
