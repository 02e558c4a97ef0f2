import { Inject, Injectable } from '@nestjs/common';
import type { JsonObjectSchema, RetryOptions } from '@toolshield/core';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { ToolApprovalGate } from '../approvals/tool-approval-gate.js';
import { ToolInvokerFactory } from '../invocation/tool-invoker.factory.js';
import { resolveToolPolicies } from '../policies/tool-policies.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';
import { TOOLSHIELD_RANDOM } from '../toolshield.constants.js';

type Method = (...args: unknown[]) => unknown;

/** A checked tool declaration and the method that runs it. @internal */
export interface ToolSpec {
  readonly name: string;
  /** Where it was declared, for messages. */
  readonly source: string;
  readonly options: ToolOptions;
  /** The `@Retryable()` options, when the tool has them. */
  readonly retryable: RetryOptions | undefined;
  readonly instance: object;
  readonly methodName: string;
  readonly inputSchema: JsonObjectSchema;
}

/**
 * Turns a tool declaration into the {@link RegisteredTool} the executor runs: its policies
 * resolved against the module's defaults, its invoker built on Nest's pipeline, its definition
 * for the model. Decorated and registered tools go through the same assembly, so they behave
 * alike.
 *
 * @internal
 */
@Injectable()
export class ToolAssembler {
  constructor(
    private readonly invokers: ToolInvokerFactory,
    private readonly approvalGate: ToolApprovalGate,
    @InjectToolShieldOptions() private readonly moduleOptions: ToolShieldModuleOptions,
    @Inject(TOOLSHIELD_RANDOM) private readonly random: () => number,
  ) {}

  assemble(spec: ToolSpec): RegisteredTool {
    const { name, options, instance, methodName } = spec;
    const method = (Object.getPrototypeOf(instance) as Record<string, Method | undefined>)[
      methodName
    ];
    if (method === undefined) throw new Error(`${spec.source} has no method "${methodName}".`);
    const policies = resolveToolPolicies(
      name,
      options,
      spec.retryable,
      this.moduleOptions.defaults,
      this.random,
    );
    const gated = this.approvalGate.gate(spec, method);
    const invoke = this.invokers.create(instance, methodName, gated, policies, gated !== method);
    return {
      name,
      source: spec.source,
      options,
      policies,
      invoke,
      definition: {
        name,
        description: options.description,
        inputSchema: spec.inputSchema,
        ...(options.annotations ? { annotations: options.annotations } : {}),
      },
    };
  }
}
