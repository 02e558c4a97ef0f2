import type { PipeTransform, Type } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { ToolArgs, ToolCall } from '../decorators/tool-params.decorator.js';
import type { ToolHandler } from './tool-registration.interface.js';

/** The method name every host exposes its handler under. @internal */
export const TOOL_HOST_METHOD = 'handle';

/**
 * Holds a registered tool's handler as a method, so Nest's `ExternalContextCreator` runs it
 * exactly like a `@Tool()` method of a provider.
 */
class RegisteredToolHost {
  constructor(private readonly handler: ToolHandler<unknown>) {}

  handle(args: unknown, call: ToolCallContext): unknown {
    return this.handler(args, call);
  }
}

/**
 * The host of one registered tool. With a DTO, the host is a class of its own whose method
 * declares `@ToolArgs()` (validated by `validation`, typed as the DTO) and `@ToolCall()`,
 * so the arguments are validated and transformed as a decorated tool's are; without one,
 * the method takes `(args, call)` as they come.
 *
 * @internal
 */
export function createToolHost(
  name: string,
  handler: ToolHandler<never>,
  argsType: Type | undefined,
  validation: PipeTransform,
): object {
  if (argsType === undefined) return new RegisteredToolHost(handler as ToolHandler<unknown>);
  const Host = class extends RegisteredToolHost {};
  Object.defineProperty(Host, 'name', { value: `RegisteredTool(${name})` });
  Reflect.defineMetadata('design:paramtypes', [argsType, Object], Host.prototype, TOOL_HOST_METHOD);
  ToolArgs(validation)(Host.prototype, TOOL_HOST_METHOD, 0);
  ToolCall()(Host.prototype, TOOL_HOST_METHOD, 1);
  return new Host(handler as ToolHandler<unknown>);
}
