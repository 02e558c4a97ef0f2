/**
 * Retry amplification: 100 concurrent callers (each makes a call, thinks 100 ms, and calls
 * again) against an upstream that answers for 2 s and then dies (503 to everything). Counts
 * the requests the upstream receives in the 10 s after it died, against the calls the callers
 * made in those 10 s. Every client allows 5 retries (6 attempts: the reference service's
 * `web_search`), with the backoff its README suggests:
 * - toolshield `shieldTool`, idempotent, with its retry budget (default) and without it, each
 *   without a breaker (the budget holds whether or not there is one) and with the default one;
 * - cockatiel `retry(handleAll, { maxAttempts: 5, backoff: new ExponentialBackoff() })`, alone and
 *   wrapped around `circuitBreaker(handleAll, { halfOpenAfter: 10 s, breaker: new ConsecutiveBreaker(5) })`,
 *   as its README composes them;
 * - the AWS SDK's `StandardRetryStrategy` (`@smithy/core/retry`, `maxAttempts: 6`), whose retry
 *   quota (500 tokens, 5 per retry, 1 back per success) is the AWS SDKs' retry budget.
 */
import { StandardRetryStrategy } from '@smithy/core/retry';
import { shieldTool, type ShieldOptions } from '@toolshield/core';
import {
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleAll,
  retry,
  wrap,
} from 'cockatiel';
import { startDyingUpstream } from './dying-upstream.js';

const CALLERS = 100;
const RETRIES = 5;
const THINK_MS = 100;
const HEALTHY_MS = 2_000;
const DEAD_MS = 10_000;

/** One call as a caller makes it: resolves when the client has given up or succeeded. */
type Call = () => Promise<unknown>;

class UpstreamError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** One request: resolves on 200, throws an error with the status otherwise. */
const request = (url: string) => async (): Promise<string> => {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200) throw new UpstreamError(response.status);
  return body;
};

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function toolshield(options: Partial<ShieldOptions>) {
  return (url: string): Call => {
    const send = request(url);
    const tool = shieldTool(() => send(), {
      name: 'web_search',
      idempotent: true,
      ...options,
      retry: { maxRetries: RETRIES, ...(options.retry || {}) },
    });
    return () => tool({});
  };
}

function cockatiel(withBreaker: boolean) {
  return (url: string): Call => {
    const send = request(url);
    const retries = retry(handleAll, { maxAttempts: RETRIES, backoff: new ExponentialBackoff() });
    const breaker = circuitBreaker(handleAll, {
      halfOpenAfter: 10_000,
      breaker: new ConsecutiveBreaker(5),
    });
    const policy = withBreaker ? wrap(retries, breaker) : retries;
    return () => policy.execute(() => send()).catch(() => undefined);
  };
}

function awsStandard(url: string): Call {
  const send = request(url);
  const strategy = new StandardRetryStrategy({ maxAttempts: RETRIES + 1 });
  return async () => {
    let token = await strategy.acquireInitialRetryToken('web_search');
    for (;;) {
      try {
        const body = await send();
        strategy.recordSuccess(token);
        return body;
      } catch (error) {
        const status = error instanceof UpstreamError ? error.status : 0;
        try {
          token = await strategy.refreshRetryTokenForRetry(token, {
            errorType: status >= 500 ? 'SERVER_ERROR' : 'TRANSIENT',
          });
        } catch {
          return undefined;
        }
        await sleep(token.getRetryDelay());
      }
    }
  };
}

export const RETRY_CLIENTS: Readonly<Record<string, (url: string) => Call>> = {
  'toolshield, retry budget (default), no breaker': toolshield({ breaker: false }),
  'toolshield, retry budget off, no breaker': toolshield({
    breaker: false,
    retry: { retryBudget: false },
  }),
  'toolshield defaults (retry budget + breaker)': toolshield({}),
  'toolshield, retry budget off, breaker': toolshield({ retry: { retryBudget: false } }),
  'cockatiel retry': cockatiel(false),
  'cockatiel retry + ConsecutiveBreaker(5)': cockatiel(true),
  'aws StandardRetryStrategy': awsStandard,
};

export interface AmplificationRun {
  readonly calls: number;
  readonly requests: number;
  readonly perCall: number;
}

/**
 * Runs one client through the healthy period and the 10 s after the upstream died: the
 * requests the upstream received in those 10 s, against the calls the callers started in them.
 */
export async function amplification(makeCall: (url: string) => Call): Promise<AmplificationRun> {
  const upstream = await startDyingUpstream();
  const call = makeCall(upstream.url);
  let deadAt = Number.POSITIVE_INFINITY;
  let requests = 0;
  let calls = 0;
  const death = setTimeout(() => {
    upstream.die();
    deadAt = performance.now();
  }, HEALTHY_MS);
  const counted = new Promise<void>((done) =>
    setTimeout(() => {
      requests = upstream.receivedSinceDeath();
      done();
    }, HEALTHY_MS + DEAD_MS),
  );
  const until = performance.now() + HEALTHY_MS + DEAD_MS;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) {
        if (performance.now() >= deadAt) calls++;
        await call();
        await sleep(THINK_MS);
      }
    }),
  );
  await counted;
  clearTimeout(death);
  await upstream.close();
  return { calls, requests, perCall: requests / Math.max(calls, 1) };
}

/** The Markdown rows of every client, measured one after the other. */
export async function amplificationReport(log: (line: string) => void) {
  const results: Record<string, AmplificationRun> = {};
  const lines = [
    '',
    `Retry amplification: ${CALLERS} callers (${THINK_MS} ms between calls) against an upstream that dies after ${HEALTHY_MS / 1000} s (503 to everything); requests it receives in the ${DEAD_MS / 1000} s after, per call made in them. Every client allows ${RETRIES} retries.`,
    '',
    '| client | calls made | requests received | requests per call |',
    '|---|---:|---:|---:|',
  ];
  for (const [name, make] of Object.entries(RETRY_CLIENTS)) {
    log(`retries: ${name} ...`);
    const run = await amplification(make);
    results[name] = run;
    lines.push(`| ${name} | ${run.calls} | ${run.requests} | ${run.perCall.toFixed(2)}× |`);
  }
  return { results, lines };
}
