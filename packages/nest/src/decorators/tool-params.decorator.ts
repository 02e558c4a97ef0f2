import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { PipeTransform, Type } from '@nestjs/common';
import { ToolParamtype } from '../toolshield.constants.js';
import { ToolValidationPipe } from '../validation/tool-validation.pipe.js';

type ParamPipe = Type<PipeTransform> | PipeTransform;

/** Types that are not DTOs: nothing to validate against, so no pipe runs for them. */
const PLAIN_TYPES: ReadonlySet<unknown> = new Set([
  Object,
  String,
  Number,
  Boolean,
  Array,
  Symbol,
  BigInt,
  Function,
  Promise,
]);

/** The declared type of a parameter (`design:paramtypes` exists before parameter decorators run). */
function paramType(target: object, key: string | symbol | undefined, index: number): unknown {
  if (key === undefined) return undefined;
  const types: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', target, key);
  return types?.[index];
}

/** Whether `type` is a class the default validation checks the arguments against. @internal */
export function isDtoClass(type: unknown): type is Type {
  return typeof type === 'function' && !PLAIN_TYPES.has(type);
}

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
 * validated (and transformed into the class) before the method runs (a parameter typed as an
 * interface or plain object is passed through as parsed); failures become
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
export const ToolArgs =
  (...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator =>
  (target, key, index) => {
    const chosen =
      pipes.length > 0
        ? pipes
        : isDtoClass(paramType(target, key, index))
          ? [ToolValidationPipe]
          : [];
    toolParam(ToolParamtype.ARGS, chosen)(target, key, index);
  };

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
