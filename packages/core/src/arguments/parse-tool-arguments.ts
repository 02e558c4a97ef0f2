import { InvalidInputError } from '../errors/invalid-input.error.js';
import { LimitExceededError } from '../errors/limit-exceeded.error.js';
import { copyPlainArguments } from './copy-plain-arguments.js';
import { findArgumentHazard } from './find-argument-hazard.js';
import { rejectedArguments } from './rejected-arguments.js';
import { locateJsonSyntaxError, type JsonSyntaxProblem } from './json-syntax-error.js';

/** Largest argument payload accepted by default: 1 MiB of UTF-8. @publicApi */
export const DEFAULT_MAX_ARGUMENT_BYTES = 1024 * 1024;

/** Deepest nesting accepted by default (the arguments object itself is level 1). @publicApi */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** @publicApi */
export interface ParseToolArgumentsOptions {
  /** Largest JSON argument string accepted, in UTF-8 bytes. Default {@link DEFAULT_MAX_ARGUMENT_BYTES}. */
  readonly maxBytes?: number;
  /** Deepest nesting accepted. Default {@link DEFAULT_MAX_ARGUMENT_DEPTH}. */
  readonly maxDepth?: number;
}

/** A tool's arguments after parsing: always a JSON object. @publicApi */
export type ToolArguments = Record<string, unknown>;

const SNIPPET_BEFORE = 24;
const SNIPPET_AFTER = 8;

/**
 * Turns the arguments a model sent into an object, or explains precisely why it cannot.
 *
 * - `null`, `undefined`, a blank string and JSON `null` mean "no arguments": `{}`.
 * - A string is parsed as JSON; it must stay within `maxBytes` (checked before parsing) or a
 *   {@link LimitExceededError} is thrown. Malformed JSON, such as the half-formed
 *   `{"city": "Par` of a cut-off generation, throws an {@link InvalidInputError} naming the line,
 *   column and a short snippet where it broke.
 * - An object built in code is held to what JSON text could hold: plain objects and arrays,
 *   strings, finite numbers, booleans and `null`, with no getters, hidden or symbol keys,
 *   cycles or class instances (Maps, Dates, ...); the tool gets a plain copy of it. The size
 *   limit does not apply to it.
 * - The result must be a JSON object (not an array, number or string), nest no deeper than
 *   `maxDepth`, and contain no `__proto__`, `constructor` or `prototype` key at any depth
 *   (own keys, enumerable or not); otherwise an {@link InvalidInputError} with the offending
 *   path is thrown.
 *
 * @example
 * parseToolArguments('{"city":"Paris"}'); // { city: 'Paris' }
 * parseToolArguments('{"city": "Par');    // throws InvalidInputError: ... line 1, column 14 ...
 *
 * @publicApi
 */
export function parseToolArguments(
  raw: unknown,
  options: ParseToolArgumentsOptions = {},
): ToolArguments {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
  if (typeof raw !== 'string') return copyFromCode(raw, maxDepth);
  const value = parseJsonText(raw, options.maxBytes ?? DEFAULT_MAX_ARGUMENT_BYTES);
  if (value === null || value === undefined) return {};
  assertObjectRoot(value);
  // JSON text parses to plain data: only the keys and the depth need checking.
  const hazard = findArgumentHazard(value, maxDepth);
  if (hazard !== undefined) throw rejectedArguments(hazard);
  return value;
}

function copyFromCode(value: unknown, maxDepth: number): ToolArguments {
  if (value === null || value === undefined) return {};
  try {
    assertObjectRoot(value);
    return copyPlainArguments(value, maxDepth);
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw new InvalidInputError('Arguments could not be read.', {
      cause: error,
      captureStack: false,
    });
  }
}

function assertObjectRoot(value: unknown): asserts value is ToolArguments {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
  throw new InvalidInputError(`Arguments must be a JSON object, not ${describeJsonKind(value)}.`, {
    captureStack: false,
    issues: [{ path: '', message: 'must be an object', constraint: 'isObject' }],
  });
}

function parseJsonText(text: string, maxBytes: number): unknown {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8: short texts need no byte count.
  const bytes = text.length * 3 <= maxBytes ? 0 : Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new LimitExceededError(`Arguments are ${bytes} bytes, over the ${maxBytes}-byte limit.`, {
      captureStack: false,
      metadata: { bytes, maxBytes },
      // The model's own arguments: shorter ones can pass.
      recoverable: true,
      suggestions: ['Send shorter arguments, then call again.'],
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (text.trim() === '') return undefined;
    throw malformedJson(text, error);
  }
}

function malformedJson(text: string, error: unknown): InvalidInputError {
  const problem = locateJsonSyntaxError(text);
  if (problem === undefined) {
    return new InvalidInputError('Arguments are not valid JSON.', {
      cause: error,
      captureStack: false,
    });
  }
  const where = `line ${problem.line}, column ${problem.column}`;
  return new InvalidInputError(
    `Arguments are not valid JSON: ${problem.reason} at ${where}, near '${snippet(text, problem)}'.`,
    { cause: error, captureStack: false, metadata: { line: problem.line, column: problem.column } },
  );
}

function snippet(text: string, problem: JsonSyntaxProblem): string {
  const start = Math.max(0, problem.offset - SNIPPET_BEFORE);
  const end = Math.min(text.length, problem.offset + SNIPPET_AFTER);
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

function describeJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}
