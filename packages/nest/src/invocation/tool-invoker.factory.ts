import { Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ApplicationConfig, ExternalContextCreator } from '@nestjs/core';
import { ToolFailureFilter } from '../filters/tool-failure.filter.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import type { ToolLane } from '../registry/registered-tool.interface.js';
import { TOOL_CONTEXT_TYPE } from '../toolshield.constants.js';
import { ToolValidationPipe } from '../validation/tool-validation.pipe.js';
import { createDirectInvoker, planDirectLane, type ToolInvoke } from './direct-lane.js';
import { createToolHandler } from './tool-handler.factory.js';
import { ToolParamsFactory } from './tool-params.factory.js';
import { ToolPipeline } from './tool-pipeline.js';

type Method = (...args: unknown[]) => unknown;

/** A tool's invoker and the lane it runs on. @internal */
export interface ToolInvoker {
  readonly lane: ToolLane;
  readonly invoke: ToolInvoke;
}

/**
 * Builds the invoker of each tool once, at bootstrap: the direct lane when nothing but
 * toolshield's parts would run around the method, otherwise Nest's own pipeline with
 * toolshield's policy interceptor innermost and its failure filter last.
 *
 * @internal
 */
@Injectable()
export class ToolInvokerFactory {
  private readonly paramsFactory = new ToolParamsFactory();

  constructor(
    private readonly contextCreator: ExternalContextCreator,
    private readonly config: ApplicationConfig,
    private readonly pipeline: ToolPipeline,
    private readonly failureFilter: ToolFailureFilter,
    private readonly validation: ToolValidationPipe,
  ) {}

  create(
    instance: object,
    methodName: string,
    method: Method,
    policies: ToolPolicies,
  ): ToolInvoker {
    const plan = planDirectLane({
      hostClass: instance.constructor,
      methodName,
      method,
      config: this.config,
      hasInnermost: this.pipeline.hasInnermost,
    });
    if (plan) {
      return {
        lane: 'direct',
        invoke: createDirectInvoker(instance, method, plan, this.validation, (attempt) =>
          this.pipeline.policyChainFor(policies, attempt),
        ),
      };
    }
    const handler = createToolHandler(
      method,
      instance.constructor,
      this.pipeline.interceptorsFor(policies),
      this.failureFilter,
    );
    const invoke = this.contextCreator.create(
      instance,
      handler,
      methodName,
      ROUTE_ARGS_METADATA,
      this.paramsFactory,
      undefined,
      undefined,
      undefined,
      TOOL_CONTEXT_TYPE,
    ) as ToolInvoke;
    return { lane: 'nest', invoke };
  }
}
