import { InvalidRunRequestError } from './run-errors.js';
import type { RunRecord } from './run-record.js';

/** Where a page of `GET /api/runs` starts: after this run, in the list's order. */
export interface RunCursor {
  readonly createdAt: string;
  readonly id: string;
}

/** The most runs a page holds, and what a request without `limit` gets. */
export const MAX_RUNS_PER_PAGE = 100;

/** A page request, validated. */
export interface RunPageRequest {
  readonly limit: number;
  readonly after?: RunCursor;
}

/** The opaque cursor of the page that follows `run` (base64url JSON). */
export function runCursorAfter(run: RunRecord): string {
  return Buffer.from(JSON.stringify([run.createdAt, run.id])).toString('base64url');
}

function decodeCursor(cursor: string): RunCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string') return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

/**
 * `?limit=&cursor=` of `GET /api/runs`, checked: `limit` an integer from 1 to
 * {@link MAX_RUNS_PER_PAGE}, `cursor` one the API gave out; each given once.
 *
 * @throws InvalidRunRequestError naming the parameter.
 */
export function parseRunPage(limit: unknown, cursor: unknown): RunPageRequest {
  let size = MAX_RUNS_PER_PAGE;
  if (limit !== undefined) {
    size = typeof limit === 'string' && /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(size >= 1 && size <= MAX_RUNS_PER_PAGE)) {
      throw new InvalidRunRequestError(
        `"limit" must be an integer from 1 to ${MAX_RUNS_PER_PAGE}, got ${JSON.stringify(limit)}.`,
      );
    }
  }
  if (cursor === undefined) return { limit: size };
  const after = typeof cursor === 'string' ? decodeCursor(cursor) : undefined;
  if (!after) {
    throw new InvalidRunRequestError(
      `"cursor" must be a cursor from a previous page's Link header, got ${JSON.stringify(cursor)}.`,
    );
  }
  return { limit: size, after };
}

/** Whether `run` comes after `cursor` in the list's order (newest first, then by id). */
export function isAfterCursor(run: RunRecord, cursor: RunCursor): boolean {
  return (
    run.createdAt < cursor.createdAt || (run.createdAt === cursor.createdAt && run.id > cursor.id)
  );
}

/** The list's order, as the SQL stores sort it: `createdAt` descending, then `id` ascending. */
export function compareNewestFirst(a: RunRecord, b: RunRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
