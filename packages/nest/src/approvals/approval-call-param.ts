import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ToolParamtype } from '../toolshield.constants.js';

type ParamEntries = Readonly<Record<string, { readonly index: number; readonly data?: unknown }>>;

/** Where a gated tool method's twin finds the arguments and the call among its parameters. */
export interface GatedParams {
  /** The validated arguments' position; `undefined` when the method takes none declared. */
  readonly argsIndex: number | undefined;
  /** How many parameters the user's method takes; the call's context follows them. */
  readonly userParams: number;
}

/**
 * Where the gate's twin of a tool method finds the validated arguments, and the call's
 * context that each attempt passes after the method's own parameters (never through Nest's
 * parameter metadata, so the method's and the application's pipes never see it). A method
 * without parameter decorators gets `(args, call)` as they come.
 */
export function gatedParams(hostClass: object, methodName: string): GatedParams {
  const entries: ParamEntries =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, hostClass, methodName) ?? {};
  const keys = Object.keys(entries);
  if (keys.length === 0) return { argsIndex: 0, userParams: 2 };
  const argsKey = keys.find((key) => key.startsWith(`${ToolParamtype.ARGS}:`));
  const argsIndex = argsKey === undefined ? undefined : entries[argsKey].index;
  const userParams = Math.max(...keys.map((key) => entries[key].index)) + 1;
  return { argsIndex, userParams };
}
