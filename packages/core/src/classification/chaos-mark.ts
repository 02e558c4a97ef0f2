import { causeChain } from './cause-chain.js';
import { readProperty } from './read-property.js';

/** The symbol `@toolshield/chaos` puts on every injected object (registered globally). */
const CHAOS_MARKER = Symbol.for('toolshield.chaos.injected');

/**
 * The chaos facts (`chaos: true`, `chaosFault`, `chaosRule`) of the first link of `error`'s
 * cause chain that fault injection marked (its `metadata.chaos`, or the chaos package's
 * marker symbol), so a classified error, its `ToolFailure` and its events say the failure
 * was injected on purpose. Empty when no link is marked.
 */
export function chaosFactsOf(error: unknown): Readonly<Record<string, unknown>> {
  for (const link of causeChain(error)) {
    const mark = markOf(link);
    if (mark === undefined) continue;
    const fault = readProperty(mark, 'chaosFault') ?? readProperty(mark, 'fault');
    const rule = readProperty(mark, 'chaosRule') ?? readProperty(mark, 'rule');
    return {
      chaos: true,
      ...(typeof fault === 'string' ? { chaosFault: fault } : {}),
      ...(typeof rule === 'string' ? { chaosRule: rule } : {}),
    };
  }
  return {};
}

function markOf(link: unknown): unknown {
  const metadata = readProperty(link, 'metadata');
  if (readProperty(metadata, 'chaos') === true) return metadata;
  if ((typeof link !== 'object' && typeof link !== 'function') || link === null) return undefined;
  try {
    return (link as { [CHAOS_MARKER]?: unknown })[CHAOS_MARKER] ?? undefined;
  } catch {
    return undefined;
  }
}
