import { inspect } from 'node:util';
import type { ToolErrorType } from '@toolshield/core';
import { chaosMarkOf } from '../marking/chaos-marker.js';

/**
 * The part of Jest's matcher context these matchers use (so this module needs no Jest
 * import: Jest's own context satisfies it).
 *
 * @publicApi
 */
export interface ChaosMatcherContext {
  readonly isNot?: boolean;
}

/** What a matcher returns, as `expect.extend` wants it. @publicApi */
export interface ChaosMatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

interface OutcomeLike {
  readonly success: boolean;
  readonly tool?: unknown;
  readonly callId?: unknown;
  readonly errorType?: unknown;
  readonly error?: unknown;
  readonly retryCount?: unknown;
  readonly metadata?: { readonly attempts?: unknown };
}

/** Passes for a `ToolFailure` payload, of `type` when given. @publicApi */
function toBeToolFailure(
  this: ChaosMatcherContext,
  received: unknown,
  type?: ToolErrorType,
): ChaosMatcherResult {
  const failure = isOutcome(received) && received.success === false;
  const pass = failure && (type === undefined || received.errorType === type);
  const expected = type === undefined ? 'a ToolFailure' : `a ToolFailure with errorType "${type}"`;
  return result(
    this,
    pass,
    'toBeToolFailure',
    type === undefined ? '' : `"${type}"`,
    expected,
    received,
  );
}

/** Passes for a `ToolResult` payload (`success: true`). @publicApi */
function toBeToolResult(this: ChaosMatcherContext, received: unknown): ChaosMatcherResult {
  const pass = isOutcome(received) && received.success === true;
  return result(this, pass, 'toBeToolResult', '', 'a ToolResult', received);
}

/**
 * Passes when the call behind an outcome was retried exactly `retries` times: `retryCount`
 * of a failure, `metadata.attempts - 1` of a result.
 *
 * @publicApi
 */
function toHaveRetried(
  this: ChaosMatcherContext,
  received: unknown,
  retries: number,
): ChaosMatcherResult {
  const pass = retriesOf(received) === retries;
  const expected = `an outcome retried ${retries} time${retries === 1 ? '' : 's'}`;
  return result(this, pass, 'toHaveRetried', String(retries), expected, received);
}

/** Passes for anything chaos injected (see `isChaosInjected`). @publicApi */
function toBeChaosInjected(this: ChaosMatcherContext, received: unknown): ChaosMatcherResult {
  const pass = chaosMarkOf(received) !== undefined;
  return result(this, pass, 'toBeChaosInjected', '', 'a value injected by chaos', received);
}

/**
 * The matchers of {@link chaosMatchers}, as `expect.extend` takes them (a type, not an
 * interface: `expect.extend` wants an index signature).
 *
 * @publicApi
 */
export type ChaosMatchers = {
  /** Passes for a `ToolFailure` payload, of `type` when given. */
  readonly toBeToolFailure: (
    this: ChaosMatcherContext,
    received: unknown,
    type?: ToolErrorType,
  ) => ChaosMatcherResult;
  /** Passes for a `ToolResult` payload. */
  readonly toBeToolResult: (this: ChaosMatcherContext, received: unknown) => ChaosMatcherResult;
  /** Passes when the call behind an outcome was retried exactly `retries` times. */
  readonly toHaveRetried: (
    this: ChaosMatcherContext,
    received: unknown,
    retries: number,
  ) => ChaosMatcherResult;
  /** Passes for anything chaos injected (see `isChaosInjected`). */
  readonly toBeChaosInjected: (this: ChaosMatcherContext, received: unknown) => ChaosMatcherResult;
};

/**
 * Jest matchers for tool outcomes and chaos: `expect.extend(chaosMatchers)` or
 * {@link installChaosMatchers}. Types for `expect(...)` come from `jest/expect-augmentation`
 * (see the README).
 *
 * @publicApi
 */
export const chaosMatchers: ChaosMatchers = Object.freeze({
  toBeToolFailure,
  toBeToolResult,
  toHaveRetried,
  toBeChaosInjected,
});

/**
 * Registers {@link chaosMatchers} on the `expect` you pass (from `@jest/globals`, or the
 * global one).
 *
 * @example
 * import { expect } from '@jest/globals';
 * installChaosMatchers(expect);
 *
 * @publicApi
 */
export function installChaosMatchers(expect: {
  extend(matchers: typeof chaosMatchers): void;
}): void {
  expect.extend(chaosMatchers);
}

function result(
  context: ChaosMatcherContext,
  pass: boolean,
  matcher: string,
  argument: string,
  expected: string,
  received: unknown,
): ChaosMatcherResult {
  const not = context.isNot === true ? '.not' : '';
  return {
    pass,
    message: () =>
      `expect(received)${not}.${matcher}(${argument})\n\n` +
      `Expected: ${context.isNot === true ? 'not ' : ''}${expected}\n` +
      `Received: ${describeReceived(received)}`,
  };
}

function describeReceived(received: unknown): string {
  if (!isOutcome(received)) return inspect(received, { depth: 2, breakLength: Infinity });
  const where = `tool "${String(received.tool)}", call "${String(received.callId)}"`;
  const retries = retriesOf(received);
  const retried = retries === undefined ? '' : `, retried ${retries}x`;
  const mark = chaosMarkOf(received);
  const chaos = mark === undefined ? '' : `, chaos ${mark.fault}`;
  return received.success
    ? `ToolResult (${where}${retried}${chaos})`
    : `ToolFailure with errorType "${String(received.errorType)}" (${where}${retried}${chaos}): ${inspect(received.error)}`;
}

function retriesOf(received: unknown): number | undefined {
  if (!isOutcome(received)) return undefined;
  if (received.success === false) {
    return typeof received.retryCount === 'number' ? received.retryCount : undefined;
  }
  const attempts = received.metadata?.attempts;
  return typeof attempts === 'number' ? attempts - 1 : undefined;
}

function isOutcome(value: unknown): value is OutcomeLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { success?: unknown }).success === 'boolean'
  );
}
