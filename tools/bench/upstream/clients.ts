/**
 * The clients compared, each calling the upstream with the same retries (up to 30, honouring
 * `Retry-After` for the refused call) and differing only in what paces them:
 * - `no limiter`: toolshield's retries as they were, each caller on its own;
 * - `cockatiel`: cockatiel's retry policy with exponential backoff (it does not read
 *   `Retry-After`), no limiter;
 * - `aws adaptive`: the AWS SDK's `DefaultRateLimiter` (CUBIC token bucket) fed every response;
 * - `toolshield adaptive`: toolshield's `RateLimiter` with `adaptive: true` (its default
 *   `RateController`), fed the refusals and the rate-limit headers.
 */
import { sleep } from '@toolshield/core';
import {
  SystemClock,
  parseRetryAfter,
  RateLimiter,
  readUpstreamRateSignals,
} from '@toolshield/core/internal';
import { DefaultRateLimiter } from '@smithy/core/retry';
import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';

const MAX_RETRIES = 30;

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
}

export type Client = (send: () => Promise<Answer>) => Promise<Answer>;

class RefusedError extends Error {
  constructor(readonly answer: Answer) {
    super(`HTTP ${answer.status}`);
  }
}

const clock = new SystemClock();

/** Sends, and on a 429 waits the Retry-After and sends again; `around` paces each attempt. */
async function withRetries(
  send: () => Promise<Answer>,
  before: () => Promise<void>,
  after: (answer: Answer, sentAt: number) => void,
): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    await before();
    const sentAt = clock.now();
    const answer = await send();
    after(answer, sentAt);
    if (answer.status !== 429 || attempt === MAX_RETRIES) return answer;
    await sleep(clock, parseRetryAfter(answer.headers, Date.now()) ?? 1000);
  }
}

export function noLimiter(): Client {
  return (send) =>
    withRetries(
      send,
      () => Promise.resolve(),
      () => undefined,
    );
}

export function cockatiel(): Client {
  const policy = retry(
    handleWhen((error) => error instanceof RefusedError),
    {
      maxAttempts: MAX_RETRIES,
      backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 5_000 }),
    },
  );
  return (send) =>
    policy.execute(async () => {
      const answer = await send();
      if (answer.status === 429) throw new RefusedError(answer);
      return answer;
    });
}

export function awsAdaptive(): Client {
  const limiter = new DefaultRateLimiter();
  return (send) =>
    withRetries(
      send,
      () => limiter.getSendToken(),
      (answer) =>
        limiter.updateClientSendingRate(
          answer.status === 429
            ? { $metadata: { httpStatusCode: 429 } }
            : { $metadata: { httpStatusCode: 200 } },
        ),
    );
}

export function toolshieldAdaptive(): Client {
  const options = { rate: 10, maxWaitMs: 600_000, adaptive: true };
  const limiter = new RateLimiter('upstream', options, clock);
  return (send) =>
    withRetries(
      send,
      () => limiter.acquire(),
      (answer, sentAt) => {
        const signals = readUpstreamRateSignals(answer.headers, Date.now());
        if (answer.status === 429) limiter.refused(signals, sentAt);
        else limiter.admitted(signals, sentAt);
      },
    );
}

export const CLIENTS: Readonly<Record<string, () => Client>> = {
  'no limiter (toolshield retries)': noLimiter,
  'cockatiel retry': cockatiel,
  'aws adaptive (DefaultRateLimiter)': awsAdaptive,
  'toolshield adaptive': toolshieldAdaptive,
};
