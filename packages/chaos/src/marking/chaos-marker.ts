/**
 * What a chaos marker says about an injected value: which fault produced it, under which rule.
 *
 * @publicApi
 */
export interface ChaosMark {
  /** The fault's name (`latency`, `network:ECONNRESET`, `http:429`, ...). */
  readonly fault: string;
  /** The id of the rule that selected the fault, when injected through a controller. */
  readonly rule?: string;
}

/**
 * The non-enumerable symbol every injected object carries. It is registered globally
 * (`Symbol.for`) so copies of this package agree on it; it never shows in `JSON.stringify`,
 * `Object.keys` or spreads, so a marked value behaves exactly like the real thing.
 *
 * @publicApi
 */
export const CHAOS_MARKER: unique symbol = Symbol.for('toolshield.chaos.injected');

/** The metadata every injected `Error` carries, for telemetry and the classifier to copy. */
interface ChaosErrorMetadata {
  readonly chaos: true;
  readonly chaosFault: string;
  readonly chaosRule?: string;
}

/**
 * Marks `value` as injected by chaos and returns it. Objects get the non-enumerable
 * {@link CHAOS_MARKER}; `Error`s also get `metadata.chaos = true`, `metadata.chaosFault` and
 * `metadata.chaosRule` (merged into existing metadata). Primitives (a thrown string, `null`,
 * a BigInt, a truncated JSON string) cannot carry a mark and are returned unchanged: the
 * controller's `chaos.injected` event and counters record them instead.
 *
 * @publicApi
 */
export function markChaos<T>(value: T, mark: ChaosMark): T {
  if (!isObjectLike(value)) return value;
  const frozenMark: ChaosMark = Object.freeze(
    mark.rule === undefined ? { fault: mark.fault } : { fault: mark.fault, rule: mark.rule },
  );
  Object.defineProperty(value, CHAOS_MARKER, {
    value: frozenMark,
    enumerable: false,
    configurable: true,
  });
  if (value instanceof Error) {
    const existing = (value as { metadata?: unknown }).metadata;
    const metadata: ChaosErrorMetadata = {
      ...(isObjectLike(existing) ? existing : {}),
      chaos: true,
      chaosFault: frozenMark.fault,
      ...(frozenMark.rule === undefined ? {} : { chaosRule: frozenMark.rule }),
    };
    Object.defineProperty(value, 'metadata', {
      value: metadata,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return value;
}

/**
 * The mark of an injected value, or `undefined` for anything chaos did not produce.
 * Recognises the {@link CHAOS_MARKER}, payloads and errors whose `metadata.chaos` is `true`
 * (a `ToolFailure` built from an injected error), and chaos events (`type: 'chaos.injected'`).
 *
 * @publicApi
 */
export function chaosMarkOf(value: unknown): ChaosMark | undefined {
  if (!isObjectLike(value)) return undefined;
  const direct = (value as { [CHAOS_MARKER]?: ChaosMark })[CHAOS_MARKER];
  if (direct !== undefined) return direct;
  const metadata = (value as { metadata?: unknown }).metadata;
  if (isObjectLike(metadata) && (metadata as { chaos?: unknown }).chaos === true) {
    const { chaosFault, chaosRule } = metadata as { chaosFault?: unknown; chaosRule?: unknown };
    return {
      fault: typeof chaosFault === 'string' ? chaosFault : 'unknown',
      ...(typeof chaosRule === 'string' ? { rule: chaosRule } : {}),
    };
  }
  const event = value as { type?: unknown; fault?: unknown; rule?: unknown };
  if (event.type === 'chaos.injected' && typeof event.fault === 'string') {
    return { fault: event.fault, ...(typeof event.rule === 'string' ? { rule: event.rule } : {}) };
  }
  return undefined;
}

/**
 * Whether `value` was injected by chaos (see {@link chaosMarkOf} for what is recognised), so
 * telemetry and tests can tell chaos from real incidents.
 *
 * @publicApi
 */
export function isChaosInjected(value: unknown): boolean {
  return chaosMarkOf(value) !== undefined;
}

function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}
