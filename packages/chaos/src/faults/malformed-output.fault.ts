import type { ChaosFault } from './chaos-fault.js';

/**
 * How the output is broken.
 *
 * - `bigint`: `{ data: output, total: 2n ** 64n - 1n }`, which `JSON.stringify` refuses.
 * - `circular`: `{ data: output, self: <itself> }`, which `JSON.stringify` refuses.
 * - `truncated-json`: the first half of `JSON.stringify({ data: output })`, a string that
 *   never parses (a strict prefix of a JSON object is never valid JSON).
 * - `wrong-type`: an HTML error page string where structured data was expected, so output
 *   validation fails.
 *
 * @publicApi
 */
export type MalformedOutputKind = 'bigint' | 'circular' | 'truncated-json' | 'wrong-type';

/** @publicApi */
export interface MalformedOutputOptions {
  /** How the output is broken (default `truncated-json`). */
  readonly kind?: MalformedOutputKind;
  /**
   * Whether the tool runs first and its real output is broken (default `true`: the tool's
   * side effects happen as they would in a real incident). With `false` the tool is not
   * called and the broken value wraps `undefined`.
   */
  readonly callThrough?: boolean;
}

const HTML_ERROR_PAGE = '<html><body><h1>502 Bad Gateway</h1><p>toolshield chaos</p></body></html>';

/**
 * Breaks `output` the way {@link MalformedOutputKind} says. Objects it returns carry no
 * marker (the fault marks them); strings cannot carry one.
 *
 * @publicApi
 */
export function malformOutput(output: unknown, kind: MalformedOutputKind): unknown {
  switch (kind) {
    case 'bigint':
      return { data: output, total: 2n ** 64n - 1n };
    case 'circular': {
      const circular: { data: unknown; self?: unknown } = { data: output };
      circular.self = circular;
      return circular;
    }
    case 'truncated-json': {
      const json = JSON.stringify({ data: output ?? null });
      return json.slice(0, Math.floor(json.length / 2));
    }
    case 'wrong-type':
      return HTML_ERROR_PAGE;
  }
}

/**
 * Resolves with an output that fails serialisation or validation (see
 * {@link MalformedOutputKind}), so the pipeline's `invalid_output` handling is exercised.
 *
 * @example
 * malformedOutput({ kind: 'bigint' })
 *
 * @publicApi
 */
export function malformedOutput(options: MalformedOutputOptions = {}): ChaosFault {
  const kind = options.kind ?? 'truncated-json';
  const callThrough = options.callThrough ?? true;
  return {
    name: `malformed-output:${kind}`,
    async inject(invocation, next) {
      const output = callThrough ? await next() : undefined;
      return invocation.mark(malformOutput(output, kind));
    },
  };
}
