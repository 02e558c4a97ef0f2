import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { PipeTransform, Type } from '@nestjs/common';
import { ToolParamtype } from '../toolshield.constants.js';
import { ToolValidationPipe } from '../validation/tool-validation.pipe.js';

type ParamPipe = Type<PipeTransform> | PipeTransform;

/**
 * Stores a tool parameter under Nest's route-argument metadata key, so Nest registers its
 * pipes and `ExternalContextCreator` resolves it like a controller parameter.
 */
const toolParam =
  (type: ToolParamtype, pipes: readonly ParamPipe[]): ParameterDecorator =>
  (target, key, index) => {
    if (key === undefined) throw new TypeError('Tool parameter decorators belong on methods.');
    const existing = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {};
    Reflect.defineMetadata(
      ROUTE_ARGS_METADATA,
      { ...existing, [`${type}:${index}`]: { index, data: undefined, pipes } },
      target.constructor,
      key,
    );
  };

/**
 * Injects the tool's arguments. Typed with a class-validator DTO, the arguments are
 * validated (and transformed into the class) before the method runs; failures become
 * `invalid_input` with field-level issues and are never retried. Pass pipes to replace the
 * default validation.
 *
 * @example
 * ```ts
 * class GetWeatherArgs {
 *   @IsString() @Length(2, 80) city!: string;
 * }
 * @Tool({ description: 'Current weather for a city.' })
 * getWeather(@ToolArgs() args: GetWeatherArgs) {}
 * ```
 * @publicApi
 */
export const ToolArgs = (...pipes: ParamPipe[]): ParameterDecorator =>
  toolParam(ToolParamtype.ARGS, pipes.length > 0 ? pipes : [ToolValidationPipe]);

/**
 * Injects the {@link ToolCallContext} of the call: id, tool name, attempt, and the
 * `AbortSignal` that fires on timeout or when the caller gives up.
 *
 * @example
 * ```ts
 * @Tool({ description: 'Fetch a page.' })
 * fetchPage(@ToolArgs() args: FetchArgs, @ToolCall() call: ToolCallContext) {
 *   return fetch(args.url, { signal: call.signal }).then((r) => r.text());
 * }
 * ```
 * @publicApi
 */
export const ToolCall = (): ParameterDecorator => toolParam(ToolParamtype.CALL, []);
