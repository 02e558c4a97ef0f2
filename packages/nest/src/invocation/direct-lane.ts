import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import type { PipeTransform } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { isObservable, lastValueFrom } from 'rxjs';
import type { ToolCallContext } from '@toolshield/core';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
import type { PolicyChain } from '../policies/layers/policy-chain.js';
import type { InnerRun } from '../policies/layers/tool-policy-layer.js';
import { ToolParamtype } from '../toolshield.constants.js';
import { ToolValidationPipe } from '../validation/tool-validation.pipe.js';
import { toolParamValue } from './tool-params.factory.js';

type Method = (...args: unknown[]) => unknown;

/** Runs one tool call: resolves to the method's value, or rejects with what it threw. @internal */
export type ToolInvoke = (args: unknown, call: ToolCallContext) => Promise<unknown>;

/** Where each tool parameter comes from, when nothing but toolshield's own parts touch it. */
interface DirectParam {
  readonly index: number;
  readonly kind: ToolParamtype;
  /** The `@ToolArgs()` DTO class, when the default validation pipe checks it. */
  readonly dto?: unknown;
}

/**
 * How the direct lane calls a method: with its decorated parameters filled in, or, for a
 * method without parameter decorators, with `(args, call)` as Nest would.
 */
interface DirectPlan {
  readonly length: number;
  readonly params?: readonly DirectParam[];
}

/** What the direct lane needs to know about a tool method and its application. @internal */
export interface DirectLaneSubject {
  readonly hostClass: object;
  readonly methodName: string;
  readonly method: Method;
  readonly config: ApplicationConfig;
  /** Another module put interceptors between the policies and the method (chaos). */
  readonly hasInnermost: boolean;
}

const hasAny = (key: string, target: object): boolean =>
  ((Reflect.getMetadata(key, target) as unknown[] | undefined)?.length ?? 0) > 0;

/** toolshield's own validation pipe, as a class (`@ToolArgs()`) or an instance (registered tools). */
const isToolValidation = (pipe: unknown): boolean =>
  pipe === ToolValidationPipe || pipe instanceof ToolValidationPipe;

/**
 * Decides whether a tool can skip Nest's enhancer machinery: it can when the pipeline Nest
 * would build holds nothing but toolshield's own parts (no guards, interceptors, pipes or
 * filters of yours, global or local; parameters only from `@ToolArgs()` with at most the
 * default validation and `@ToolCall()`). Such a call then runs the same policies, the same
 * validation and the same method, and its errors reach the same failure mapping, without the
 * per-call cost of the rxjs interceptor chain and the parameter-resolution pass.
 *
 * @returns the plan of the direct call, or `undefined` when the tool needs Nest's pipeline.
 * @internal
 */
export function planDirectLane(subject: DirectLaneSubject): DirectPlan | undefined {
  const { hostClass, methodName, method, config } = subject;
  const global = [
    config.getGlobalGuards(),
    config.getGlobalRequestGuards(),
    config.getGlobalInterceptors(),
    config.getGlobalRequestInterceptors(),
    config.getGlobalPipes(),
    config.getGlobalRequestPipes(),
  ];
  if (subject.hasInnermost || global.some((enhancers) => enhancers.length > 0)) return undefined;
  const local = [
    GUARDS_METADATA,
    INTERCEPTORS_METADATA,
    PIPES_METADATA,
    EXCEPTION_FILTERS_METADATA,
  ];
  if (local.some((key) => hasAny(key, method) || hasAny(key, hostClass))) return undefined;

  const metadata: Record<string, { index: number; pipes?: unknown[] }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, hostClass, methodName) ?? {};
  const paramTypes: unknown[] =
    Reflect.getMetadata(
      'design:paramtypes',
      (hostClass as { prototype: object }).prototype,
      methodName,
    ) ?? [];
  const params: DirectParam[] = [];
  for (const [key, { index, pipes = [] }] of Object.entries(metadata)) {
    const kind = Number(key.split(':')[0]);
    const ours = kind === ToolParamtype.ARGS || kind === ToolParamtype.CALL;
    const validated =
      kind === ToolParamtype.ARGS && pipes.length === 1 && isToolValidation(pipes[0]);
    if (!ours || (pipes.length > 0 && !validated)) return undefined;
    params.push({ index, kind, dto: validated ? paramTypes[index] : undefined });
  }
  if (params.length === 0) return { length: 0 };
  return { length: Math.max(...params.map((param) => param.index)) + 1, params };
}

/**
 * The invoker of a tool on the direct lane: the tool's policies around (parameters, method).
 * Like Nest's pipeline, it awaits the method and takes the last value of an Observable.
 *
 * @internal
 */
export function createDirectInvoker(
  instance: object,
  method: Method,
  plan: DirectPlan,
  validation: PipeTransform,
  chainAround: (attempt: InnerRun) => PolicyChain,
): ToolInvoke {
  const { params, length } = plan;
  const dto = params?.find((param) => param.dto !== undefined)?.dto;
  const argumentsOf = (args: unknown, call: ToolCallContext): unknown[] => {
    if (!params) return [args, call];
    const values = new Array<unknown>(length);
    for (const { index, kind } of params) values[index] = toolParamValue(kind, args, call);
    return values;
  };
  // Promise callbacks rather than async functions: this stays alive while the call runs, and
  // a suspended async function holds more memory per call in flight.
  const callMethod = (input: unknown, call: ToolCallContext): Promise<unknown> => {
    let value: unknown;
    try {
      value = method.apply(instance, argumentsOf(input, call));
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(value).then(lastValueIfObservable);
  };
  // A DTO the compiled path proves valid costs no promise; anything else goes through the pipe.
  const proven = (args: unknown) =>
    validation instanceof ToolValidationPipe ? validation.provenValid(args, dto) : undefined;
  const attempt =
    dto === undefined
      ? callMethod
      : (args: unknown, call: ToolCallContext): Promise<unknown> => {
          const input = proven(args);
          if (input !== undefined) return callMethod(input, call);
          return Promise.resolve(
            validation.transform(args, { type: 'body', metatype: dto as never }),
          ).then((transformed) => callMethod(transformed, call));
        };
  // The call's arguments ride in its state, so the chain is built once, with no closure per call.
  const policies = chainAround((call, state) => attempt(state.args, call));
  return (args, call) => {
    const state = toolCallState(call);
    return state ? policies(call as MutableToolCallContext, state) : attempt(args, call);
  };
}

/** Like Nest's pipeline: an Observable's last value (undefined when it completes empty). */
function lastValueIfObservable(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value, { defaultValue: undefined }) : value;
}
