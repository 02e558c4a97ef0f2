import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RetryOptions } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import { assertToolDeclaration } from '../registration/tool-declaration.js';
import { ToolAssembler } from '../registration/tool-assembler.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import { DtoJsonSchemaFactory } from '../schema/dto-json-schema.js';
import { RETRYABLE_METADATA, ToolParamtype } from '../toolshield.constants.js';
import { REQUEST_SCOPED_TOOL } from '../toolshield.messages.js';
import { assertArgsClassHasRules } from '../validation/assert-args-class-rules.js';
import { providerMethods, toolOptionsOf, type ProviderMethod } from './provider-methods.js';

type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Finds every `@Tool()` method at bootstrap, checks it, builds it once (see
 * {@link ToolAssembler}) and registers it.
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
    private readonly assembler: ToolAssembler,
  ) {}

  onApplicationBootstrap(): void {
    const schemas = new DtoJsonSchemaFactory();
    for (const { wrapper, instance, methodName, method } of providerMethods(
      this.discovery,
      this.scanner,
    )) {
      const options = toolOptionsOf(method);
      if (options) this.register(wrapper, instance, methodName, method, options, schemas);
    }
    this.logger.log(`Registered ${this.registry.names().length} tool(s)`);
  }

  private register(
    wrapper: ProviderWrapper,
    instance: object,
    methodName: string,
    method: ProviderMethod['method'],
    options: ToolOptions,
    schemas: DtoJsonSchemaFactory,
  ): void {
    const source = `${instance.constructor.name}.${methodName}`;
    if (!wrapper.isDependencyTreeStatic()) throw new Error(REQUEST_SCOPED_TOOL(source));
    const name = options.name ?? methodName;
    const retryable = this.reflector.get<RetryOptions | undefined>(RETRYABLE_METADATA, method);
    assertToolDeclaration(name, options, source, retryable);

    const args = this.argsParam(instance, methodName);
    assertArgsClassHasRules(name, args?.type, args?.pipes ?? []);
    const inputSchema = options.inputSchema ?? schemas.create(args?.type);
    this.registry.register(
      this.assembler.assemble({
        name,
        source,
        options,
        retryable,
        instance,
        methodName,
        inputSchema,
      }),
    );
  }

  /** The declared type of the `@ToolArgs()` parameter and its pipes, if there is one. */
  private argsParam(
    instance: object,
    methodName: string,
  ): { type: unknown; pipes: readonly unknown[] } | undefined {
    const params: Record<string, { index: number; pipes?: readonly unknown[] }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, instance.constructor, methodName) ?? {};
    const args = Object.entries(params).find(([key]) => key.startsWith(`${ToolParamtype.ARGS}:`));
    if (!args) return undefined;
    const paramTypes: unknown[] =
      Reflect.getMetadata('design:paramtypes', instance, methodName) ?? [];
    return { type: paramTypes[args[1].index], pipes: args[1].pipes ?? [] };
  }
}
