import { readProperty, readString } from './read-property.js';

/** How many links of a `cause` chain are looked at, the thrown value included. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The thrown value followed by its causes (`cause`, or the first of an `AggregateError`'s
 * `errors`), outermost first, bounded in length and safe against cycles.
 */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [error];
  for (let next = nextCause(error); chain.length < MAX_CAUSE_DEPTH; next = nextCause(next)) {
    if (next === undefined || next === null || chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

function nextCause(link: unknown): unknown {
  const cause = readProperty(link, 'cause');
  if (cause !== undefined) return cause;
  const errors = readProperty(link, 'errors');
  return readString(link, 'name') === 'AggregateError' && Array.isArray(errors)
    ? (errors[0] as unknown)
    : undefined;
}
