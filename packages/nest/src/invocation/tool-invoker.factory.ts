import { Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ExternalContextCreator } from '@nestjs/core';
import type { ToolCallContext } from '@toolshield/core';
import type { MutableToolCallContext } from '../execution/tool-call-state.js';
import { ToolFailureFilter } from '../filters/tool-failure.filter.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import { TOOL_CONTEXT_TYPE } from '../toolshield.constants.js';
import { runAsCall } from './running-call.js';
import { createAttempt } from './tool-attempt.js';
import { createToolHandler } from './tool-handler.factory.js';
import { ToolParamsFactory } from './tool-params.factory.js';
import { ToolPipeline } from './tool-pipeline.js';

type Method = (...args: unknown[]) => unknown;

/** Runs one tool call: resolves to the method's value or a failure envelope. @internal */
export type ToolInvoke = (args: unknown, call: ToolCallContext) => Promise<unknown>;

/**
 * Builds the invoker of each tool once, at bootstrap: Nest's own pipeline for the method
 * (your guards, interceptors, pipes and filters, global and local), then toolshield's
 * policies around the method (and around the interceptors other modules put closest to it),
 * and toolshield's failure filter last. Every tool runs this one way.
 *
 * @internal
 */
@Injectable()
export class ToolInvokerFactory {
  private readonly paramsFactory = new ToolParamsFactory();

  constructor(
    private readonly contextCreator: ExternalContextCreator,
    private readonly pipeline: ToolPipeline,
    private readonly failureFilter: ToolFailureFilter,
  ) {}

  /**
   * The invoker of one tool. `takesCall`: the method wants the call's context after the
   * parameters it declares (the approval gate's twin of the method).
   */
  create(
    instance: object,
    methodName: string,
    method: Method,
    policies: ToolPolicies,
    takesCall = false,
  ): ToolInvoke {
    const { pipeline } = this;
    const innermost = pipeline.innermostInterceptors;
    const handler = createToolHandler(method, instance.constructor, this.failureFilter, (handler) =>
      pipeline.policyChainFor(
        policies,
        createAttempt({ instance, method, handler, takesCall, innermost }),
      ),
    );
    const invoke = this.contextCreator.create(
      instance,
      handler,
      methodName,
      ROUTE_ARGS_METADATA,
      this.paramsFactory,
      undefined, // the static context: tools are singletons
      undefined, // the inquirer: Nest finds the host's module itself
      undefined, // guards, interceptors and filters all apply
      TOOL_CONTEXT_TYPE,
    ) as ToolInvoke;
    return (args, call) => runAsCall(call as MutableToolCallContext, invoke, args, call);
  }
}
