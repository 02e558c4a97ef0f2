import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ToolRegistry } from '../registry/tool.registry.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';
import { DtoJsonSchemaFactory } from '../schema/dto-json-schema.js';
import { DUPLICATE_TOOL_NAME } from '../toolshield.messages.js';
import { assertArgsClassHasRules } from '../validation/assert-args-class-rules.js';
import { ToolValidationPipe } from '../validation/tool-validation.pipe.js';
import { ToolAssembler } from './tool-assembler.js';
import { assertToolDeclaration } from './tool-declaration.js';
import { TOOL_HOST_METHOD, createToolHost } from './tool-host.js';
import type { RegisteredToolHandle, ToolRegistration } from './tool-registration.interface.js';

/**
 * Registers tools in code, without decorators: at bootstrap (from a provider's
 * `onModuleInit`, say) or at any time while the application runs, and removes them again.
 * A registered tool gets exactly what a `@Tool()` method gets: the same policies (retry,
 * breaker, timeout, bulkhead, from the same options and module defaults), validation of a
 * DTO, the same pipeline (your global enhancers and the chaos module apply), events,
 * failure mapping and renderings through `ToolRegistry.definitions()`. Every change shows on
 * `ToolRegistry.changes$`.
 *
 * Tools registered before the application has bootstrapped are built when it does, after
 * every module has initialised (so the chaos module and global enhancers are known); the
 * checks (portable name, description, duplicates) run at once either way.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class CurrencyTools implements OnModuleInit {
 *   constructor(private readonly tools: ToolRegistrar, private readonly rates: RatesClient) {}
 *
 *   onModuleInit() {
 *     this.tools.register({
 *       name: 'convert_currency',
 *       description: 'Converts an amount between two currencies.',
 *       argsType: ConvertArgs,
 *       idempotent: true,
 *       timeoutMs: 5_000,
 *       handler: (args, call) => this.rates.convert(args, { signal: call.signal }),
 *     });
 *   }
 * }
 * ```
 * @publicApi
 */
@Injectable()
export class ToolRegistrar implements OnApplicationBootstrap {
  private readonly logger = new Logger('ToolShield');
  /** Registrations waiting for the application to bootstrap, by name. */
  private pending: Map<string, ToolRegistration<never>> | undefined = new Map();
  /** The tool each registration became. */
  private readonly built = new WeakMap<ToolRegistration<never>, RegisteredTool>();

  /** Nest injects the dependencies. @internal */
  constructor(
    private readonly registry: ToolRegistry,
    private readonly assembler: ToolAssembler,
    private readonly validation: ToolValidationPipe,
  ) {}

  /**
   * Registers a tool (see {@link ToolRegistration}).
   *
   * @throws Error when the name is not portable or already taken, or the description is
   *   missing; nothing is registered then.
   */
  register<TArgs>(registration: ToolRegistration<TArgs>): RegisteredToolHandle {
    const entry = registration as unknown as ToolRegistration<never>;
    const { name } = entry;
    const { argsType: _type, retryable, handler: _handler, source: _source, ...options } = entry;
    assertToolDeclaration(name, options, sourceOf(entry), retryable);
    const taken = this.registry.get(name)?.source ?? mapGet(this.pending, name, sourceOf);
    if (taken !== undefined) throw new Error(DUPLICATE_TOOL_NAME(name, taken, sourceOf(entry)));

    if (this.pending) this.pending.set(name, entry);
    else this.add(entry);
    return {
      name,
      remove: () => {
        if (this.pending?.get(name) === entry) return this.pending.delete(name);
        const tool = this.built.get(entry);
        return tool !== undefined && this.registry.unregister(name, tool);
      },
    };
  }

  /**
   * Removes the tool of this name, however it was registered (a decorated tool too).
   *
   * @returns whether there was such a tool.
   */
  unregister(name: string): boolean {
    return this.pending?.delete(name) || this.registry.unregister(name);
  }

  /** Builds the tools registered before bootstrap. */
  onApplicationBootstrap(): void {
    const pending = [...(this.pending?.values() ?? [])];
    this.pending = undefined;
    for (const registration of pending) this.add(registration);
    if (pending.length > 0) this.logger.log(`Registered ${pending.length} tool(s) in code`);
  }

  private add(registration: ToolRegistration<never>): void {
    const { name, argsType, retryable, handler, source: _source, ...options } = registration;
    assertArgsClassHasRules(name, argsType, [this.validation]);
    const tool = this.assembler.assemble({
      name,
      source: sourceOf(registration),
      options: { name, ...options },
      retryable,
      instance: createToolHost(name, handler, argsType, this.validation),
      methodName: TOOL_HOST_METHOD,
      inputSchema: options.inputSchema ?? new DtoJsonSchemaFactory().create(argsType),
    });
    this.registry.register(tool);
    this.built.set(registration, tool);
  }
}

function sourceOf(registration: ToolRegistration<never>): string {
  return registration.source ?? `registered tool "${registration.name}"`;
}

function mapGet<V, R>(
  map: Map<string, V> | undefined,
  key: string,
  read: (value: V) => R,
): R | undefined {
  const value = map?.get(key);
  return value === undefined ? undefined : read(value);
}
