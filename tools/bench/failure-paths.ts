/**
 * Failure-path cost per call of toolshield beside its peers, in one process (method: rounds.ts).
 * An agent under an outage makes thousands of calls that fail, so each path a failure takes
 * has its row next to the peer doing the same work:
 *
 * - rejection by an open breaker: a default tool beside opossum's and cockatiel's own open
 *   breakers; an idempotent tool beside cockatiel's retry + breaker + timeout (its retry set
 *   not to retry the breaker's rejection, as toolshield does not);
 * - a tool throwing a plain `Error` (`internal`, not retried, logger off) and a `not_found`
 *   error, beside cockatiel's breaker + timeout running the same throwing body. The breakers
 *   count every call but are kept closed (toolshield's `internal` row starts a fresh window
 *   every {@link CLOSE_EVERY} calls; `not_found` never counts as a failure).
 *
 * Before timing, every toolshield row is checked to do the work a user expects on that path:
 * the failure type, the breaker's count, and the redaction of the secret in the message.
 */
import 'reflect-metadata';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NotFoundError, type ToolCallRequest, type ToolOutcome } from '@toolshield/core';
import {
  Tool,
  ToolArgs,
  ToolCircuitBreakers,
  ToolExecutor,
  ToolShieldModule,
} from '@toolshield/nest';
import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleAll,
  handleWhen,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import CircuitBreaker from 'opossum';
import type { LookupArgs } from './fixtures.js';
import { timeRows, type Row, type RowResult } from './rounds.js';
import { ratio, us } from './stats.js';

const HOUR_MS = 3_600_000;
/**
 * The `internal` row closes its breaker (a fresh window) every this many calls: a tool that
 * always fails opens its breaker after 20 calls in a row, and the row is about the closed path.
 */
const CLOSE_EVERY = 10;
/** The secret each failing body puts in its message: the rows check it never leaves. */
const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e';
const INTERNAL_MESSAGE = `Upstream said no (api_key=${SECRET})`;

@Injectable()
class FailingTools {
  @Tool({
    name: 'down',
    description: 'Its breaker is held open.',
    breaker: { resetTimeoutMs: HOUR_MS },
  })
  async down(@ToolArgs() _args: LookupArgs) {
    return { ok: true };
  }

  @Tool({
    name: 'down_idempotent',
    description: 'Idempotent; its breaker is held open.',
    idempotent: true,
    breaker: { resetTimeoutMs: HOUR_MS },
  })
  async downIdempotent(@ToolArgs() _args: LookupArgs) {
    return { ok: true };
  }

  @Tool({ name: 'buggy', description: 'Throws a plain Error.' })
  async buggy(@ToolArgs() _args: LookupArgs): Promise<never> {
    throw new Error(INTERNAL_MESSAGE);
  }

  @Tool({ name: 'missing', description: 'Throws not_found.' })
  async missing(@ToolArgs() _args: LookupArgs): Promise<never> {
    throw new NotFoundError('No city of that name');
  }
}

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [FailingTools] })
class FailingModule {}

/** One failure path: toolshield's row and its peer's. */
interface FailurePath {
  readonly id: string;
  readonly label: string;
  readonly toolshield: string;
  readonly peer: string;
}

const PATHS: readonly FailurePath[] = [
  {
    id: 'open',
    label: 'rejection by an open breaker, default tool',
    toolshield: 'ts-open',
    peer: 'opossum-open',
  },
  {
    id: 'open-cockatiel',
    label: 'rejection by an open breaker, default tool',
    toolshield: 'ts-open',
    peer: 'cockatiel-open',
  },
  {
    id: 'open-idempotent',
    label: 'rejection by an open breaker, idempotent tool',
    toolshield: 'ts-open-idempotent',
    peer: 'cockatiel-stack-open',
  },
  {
    id: 'internal',
    label: 'a plain Error from the tool (internal), not retried, logger off',
    toolshield: 'ts-internal',
    peer: 'cockatiel-internal',
  },
  {
    id: 'not-found',
    label: 'not_found from the tool, not retried',
    toolshield: 'ts-not-found',
    peer: 'cockatiel-not-found',
  },
];

/** The rows' timings and each failure path's ratio to its peer. */
export interface FailurePathsReport {
  readonly rows: RowResult[];
  readonly paths: { readonly id: string; readonly label: string; readonly ratio: number }[];
}

const request = (name: string): ToolCallRequest => ({
  id: 'call_bench',
  name,
  arguments: '{"city":"Paris"}',
});

/** Fails the benchmark if a path's outcome is not the failure the row is about. */
function expectFailure(outcome: ToolOutcome, errorType: string): void {
  if (outcome.success || outcome.errorType !== errorType)
    throw new Error(`Expected ${errorType}, got ${JSON.stringify(outcome)}`);
  if (JSON.stringify(outcome).includes(SECRET.slice(0, 12)))
    throw new Error(`The secret left the call: ${JSON.stringify(outcome)}`);
}

async function start(): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(FailingModule, { logger: false });
  await app.init();
  return app;
}

/** Checks the toolshield rows do the work expected of them, then returns them. */
async function toolshieldRows(app: INestApplicationContext): Promise<Row[]> {
  const executor = app.get(ToolExecutor);
  const breakers = app.get(ToolCircuitBreakers);
  for (const name of ['down', 'down_idempotent', 'buggy', 'missing'])
    await executor.execute(request(name));
  await breakers.open('down');
  await breakers.open('down_idempotent');
  expectFailure(await executor.execute(request('down')), 'circuit_open');
  expectFailure(await executor.execute(request('down_idempotent')), 'circuit_open');

  const buggy = breakers.find('buggy');
  if (!buggy) throw new Error('The buggy tool has no breaker');
  const before = buggy.stats().failures;
  expectFailure(await executor.execute(request('buggy')), 'internal');
  if (buggy.stats().failures !== before + 1)
    throw new Error('The breaker did not count the internal failure');
  expectFailure(await executor.execute(request('missing')), 'not_found');

  const once = (name: string) => () => executor.execute(request(name));
  let buggyCalls = 0;
  const buggyOnce = () => {
    if (++buggyCalls % CLOSE_EVERY === 0)
      return breakers.close('buggy').then(() => executor.execute(request('buggy')));
    return executor.execute(request('buggy'));
  };
  return [
    { id: 'ts-open', label: 'toolshield, default tool, breaker open', once: once('down') },
    {
      id: 'ts-open-idempotent',
      label: 'toolshield, idempotent tool, breaker open',
      once: once('down_idempotent'),
    },
    { id: 'ts-internal', label: 'toolshield, plain Error (internal)', once: buggyOnce },
    { id: 'ts-not-found', label: 'toolshield, not_found', once: once('missing') },
  ];
}

/** The peers' rows, each breaker opened (or kept closed) the way its toolshield row's is. */
async function peerRows(closers: (() => unknown)[]): Promise<Row[]> {
  const ok = async (_args: LookupArgs) => ({ ok: true });
  const args: LookupArgs = { city: 'Paris' };
  const swallow = (): void => undefined;

  const opossum = new CircuitBreaker(ok, { resetTimeout: HOUR_MS });
  closers.push(() => opossum.shutdown());
  opossum.open();

  const openBreaker = () =>
    circuitBreaker(handleAll, { halfOpenAfter: HOUR_MS, breaker: new ConsecutiveBreaker(1) });
  const cockatielOpen = openBreaker();
  await cockatielOpen.execute(() => Promise.reject(new Error('trip'))).catch(swallow);
  const stackBreaker = openBreaker();
  await stackBreaker.execute(() => Promise.reject(new Error('trip'))).catch(swallow);
  const cockatielStack = wrap(
    retry(
      handleWhen((error) => !(error instanceof BrokenCircuitError)),
      { maxAttempts: 3, backoff: new ExponentialBackoff() },
    ),
    stackBreaker,
    timeout(30_000, TimeoutStrategy.Aggressive),
  );
  const counting = () =>
    wrap(
      circuitBreaker(handleAll, {
        halfOpenAfter: HOUR_MS,
        breaker: new ConsecutiveBreaker(1_000_000_000),
      }),
      timeout(30_000, TimeoutStrategy.Aggressive),
    );
  const cockatielInternal = counting();
  const cockatielNotFound = counting();
  return [
    {
      id: 'opossum-open',
      label: 'opossum fire, breaker open',
      once: () => opossum.fire(args).catch(swallow),
    },
    {
      id: 'cockatiel-open',
      label: 'cockatiel circuitBreaker, open',
      once: () => cockatielOpen.execute(() => ok(args)).catch(swallow),
    },
    {
      id: 'cockatiel-stack-open',
      label: 'cockatiel wrap(retry, circuitBreaker, timeout), breaker open',
      once: () => cockatielStack.execute(() => ok(args)).catch(swallow),
    },
    {
      id: 'cockatiel-internal',
      label: 'cockatiel wrap(circuitBreaker, timeout), plain Error',
      once: () =>
        cockatielInternal
          .execute(async () => {
            throw new Error(INTERNAL_MESSAGE);
          })
          .catch(swallow),
    },
    {
      id: 'cockatiel-not-found',
      label: 'cockatiel wrap(circuitBreaker, timeout), not_found',
      once: () =>
        cockatielNotFound
          .execute(async () => {
            throw new NotFoundError('No city of that name');
          })
          .catch(swallow),
    },
  ];
}

/** Times every failure path beside its peer. */
export async function runFailurePaths(log: (line: string) => void): Promise<FailurePathsReport> {
  log('failure paths: toolshield beside opossum and cockatiel ...');
  const closers: (() => unknown)[] = [];
  const app = await start();
  closers.push(() => app.close());
  const rows = [...(await toolshieldRows(app)), ...(await peerRows(closers))];
  const { results, ratioTo } = await timeRows(rows, log);
  const paths = PATHS.map((path) => ({
    id: path.id,
    label: `${path.label}: × ${rows.find((row) => row.id === path.peer)?.label}`,
    ratio: ratioTo(path.peer)[path.toolshield] ?? Number.NaN,
  }));
  for (const close of closers.reverse()) await close();
  return { rows: results, paths };
}

/** The report as Markdown. */
export function failurePathsTable(report: FailurePathsReport): string {
  return [
    'Failure paths (µs per call, median of round medians; ratios within each round):',
    '',
    '| Row | median µs/call | spread of round medians |',
    '|---|---:|---:|',
    ...report.rows.map(
      (row) => `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} |`,
    ),
    '',
    '| Path | toolshield ÷ peer | goal |',
    '|---|---:|---|',
    ...report.paths.map((path) => `| ${path.label} | ${ratio(path.ratio)} | ≤ 1.00× |`),
  ].join('\n');
}

if (process.argv[2] === 'run') {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  process.stdout.write(`${failurePathsTable(await runFailurePaths(log))}\n`);
}
