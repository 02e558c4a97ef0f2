import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ToolParamtype } from '../toolshield.constants.js';

type ParamEntries = Readonly<Record<string, { readonly index: number; readonly data?: unknown }>>;

/** Marks the parameter the approval gate adds, so a second application finds it again. */
const APPROVAL_CALL_PARAM = 'toolshield:approval-call';

/** Where a gated tool method's handler finds the arguments and the call among its parameters. */
export interface GatedParams {
  /** The validated arguments' position; `undefined` when the method takes none declared. */
  readonly argsIndex: number | undefined;
  readonly callIndex: number;
  /** The user's method takes the parameters before `callIndex`. */
  readonly userParams: number;
}

/**
 * Makes Nest hand a gated tool method's handler the call's context as an extra last parameter
 * (after the pipes ran on the others), and says where the validated arguments are. A method
 * without parameter decorators gets `(args, call)` as they come: nothing to add.
 */
export function gatedParams(hostClass: object, methodName: string): GatedParams {
  const entries: ParamEntries =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, hostClass, methodName) ?? {};
  const keys = Object.keys(entries);
  if (keys.length === 0) return { argsIndex: 0, callIndex: 1, userParams: 2 };
  const argsKey = keys.find((key) => key.startsWith(`${ToolParamtype.ARGS}:`));
  const argsIndex = argsKey === undefined ? undefined : entries[argsKey].index;
  const added = keys.find((key) => entries[key].data === APPROVAL_CALL_PARAM);
  if (added !== undefined) {
    const callIndex = entries[added].index;
    return { argsIndex, callIndex, userParams: callIndex };
  }
  const callIndex = Math.max(...keys.map((key) => entries[key].index)) + 1;
  Reflect.defineMetadata(
    ROUTE_ARGS_METADATA,
    {
      ...entries,
      [`${ToolParamtype.CALL}:${callIndex}`]: {
        index: callIndex,
        data: APPROVAL_CALL_PARAM,
        pipes: [],
      },
    },
    hostClass,
    methodName,
  );
  return { argsIndex, callIndex, userParams: callIndex };
}
