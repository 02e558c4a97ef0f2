import { createHash } from 'node:crypto';
import { InvalidRunRequestError } from './run-errors.js';

/** What a run started with an `Idempotency-Key` keeps: the key and its request's fingerprint. */
export interface RunIdempotency {
  readonly key: string;
  /** A hash of the request (task and scenario as sent): a retry must send the same. */
  readonly fingerprint: string;
}

/** Visible ASCII, 1 to 255 characters (what the IETF draft and the big APIs accept). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The idempotency of a request with `key`, its fingerprint taken from the fields that decide
 * the run.
 *
 * @throws InvalidRunRequestError for a key that is empty, too long or not visible ASCII.
 */
export function runIdempotency(
  key: string,
  request: { task?: unknown; scenario?: unknown },
): RunIdempotency {
  if (!KEY.test(key)) {
    throw new InvalidRunRequestError(
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, say).',
    );
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([request.task ?? null, request.scenario ?? null]))
    .digest('base64url');
  return { key, fingerprint };
}

/** The key was used before for a different request (`422`). */
export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';

  constructor(key: string) {
    super(
      `The Idempotency-Key ${JSON.stringify(key)} was already used for a different request: ` +
        'send a new key for a new run.',
    );
  }
}
