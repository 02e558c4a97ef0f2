import type { Type } from '@nestjs/common';
import type { RetryOptions, ToolCallContext } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';

/**
 * What runs a registered tool: the same `(args, call)` a `@Tool()` method receives through
 * `@ToolArgs()` and `@ToolCall()`. Its value (awaited, or the last value of an Observable)
 * is the output; whatever it throws is classified like a decorated tool's error.
 *
 * @publicApi
 */
export type ToolHandler<TArgs = Record<string, unknown>> = (
  args: TArgs,
  call: ToolCallContext,
) => unknown;

/**
 * A tool declared in code rather than with `@Tool()`: the same options, plus its handler.
 *
 * @publicApi
 */
export interface ToolRegistration<TArgs = Record<string, unknown>> extends ToolOptions {
  /** Name the model calls the tool by: 1-64 of `A-Za-z0-9_-`, unique in the application. */
  readonly name: string;
  /**
   * A class-validator DTO for the arguments: they are validated and transformed into it
   * before the handler runs (failures become `invalid_input`), exactly as for a `@ToolArgs()`
   * DTO, and the JSON Schema is derived from it unless `inputSchema` is given.
   */
  readonly argsType?: Type<TArgs>;
  /** The options of `@Retryable()`: how the tool is retried; only with `idempotent: true`. */
  readonly retryable?: RetryOptions;
  readonly handler: ToolHandler<TArgs>;
  /** Where the tool comes from, for startup and log messages (default `registered tool "<name>"`). */
  readonly source?: string;
}

/**
 * A tool registered through `ToolRegistrar`; `remove()` takes it out again.
 *
 * @publicApi
 */
export interface RegisteredToolHandle {
  readonly name: string;
  /**
   * Removes this tool (calls already running finish; later calls get `tool_not_found`). A
   * tool registered later under the same name is left alone.
   *
   * @returns whether the tool was still registered.
   */
  remove(): boolean;
}
