/**
 * What redaction costs per failure: `createToolFailure` with the default sanitizer against the
 * same call with a redactor that changes nothing (so the difference is the redaction alone),
 * for a typical failure and for a long message full of secrets, plus `redactText` on its own.
 * Synchronous rows; each sample is BATCH calls; rounds in rotated order, medians over rounds.
 */
import { InternalToolError, NetworkError, type ToolError, type Redactor } from '@toolshield/core';
import { createToolFailure, defaultRedactor } from '@toolshield/core/internal';
import { Bench } from 'tinybench';
import { median, min, ratio, us } from './stats.js';

const BATCH = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 500);

export interface RedactionRow {
  readonly id: string;
  readonly label: string;
  /** µs per call: median over rounds of the round's median. */
  readonly p50: number;
  /** µs per call: the best round's median (the least disturbed by other work on the machine). */
  readonly best: number;
  /** Ratio to the same failure built with a redactor that changes nothing, median over rounds. */
  readonly vsNoRedaction?: number;
}

const noRedaction: Redactor = { redactText: (text) => text, redactValue: (value) => value };
const ctx = { tool: 'list_orders', callId: 'call_1', durationMs: 120, retryCount: 1, retryMax: 2 };

/** Fake credential material built at run time, so the repository holds no secret-like literal. */
const fake = (prefix: string, length: number) =>
  `${prefix}${'a1B2c3D4e5F6g7H8i9J0'.repeat(Math.ceil(length / 20)).slice(0, length)}`;

const TYPICAL =
  'connect ECONNREFUSED 10.0.0.7:443 while fetching https://api.example.com/v1/orders?page=2';
const LONG = [
  'Upstream returned 401 for POST https://svc:',
  fake('', 18),
  '@billing.internal/v2/invoices with body ',
  JSON.stringify({
    token: fake('', 32),
    aws_secret_access_key: fake('', 40),
    headers: { Authorization: `Bearer ${fake('eyJhbGciOiJIUzI1NiJ9.', 40)}.${fake('', 43)}` },
    private_key: `-----BEGIN PRIVATE KEY-----\n${fake('MIIE', 60)}\n${fake('', 64)}\n-----END PRIVATE KEY-----\n`,
  }),
  ` and hint ${fake('ghp_', 36)}; `,
  'the upstream said the request was malformed and that the invoice batch could not be reconciled. '.repeat(
    15,
  ),
].join('');

/**
 * Distinct texts, cycled through: V8 caches the result of a global regex replace on the same
 * string, which would make a row that redacts one constant message look free.
 */
const VARIANTS = 1024;
const variants = (text: string) =>
  Array.from({ length: VARIANTS }, (_, i) => `${text} (request ${1000 + i})`);
const typicalTexts = variants(TYPICAL);
const longTexts = variants(LONG);
let next = 0;
const pick = (texts: readonly string[]) => texts[(next = (next + 1) % VARIANTS)];

const typicalError = (): ToolError =>
  new NetworkError(pick(typicalTexts), {
    metadata: { code: 'ECONNREFUSED', url: 'https://api.example.com/v1/orders?page=2' },
  });
const longError = (): ToolError =>
  new InternalToolError(pick(longTexts), {
    metadata: { url: `https://api.example.com/v1?api_key=${fake('', 32)}` },
  });

const rows: { id: string; label: string; once: () => unknown; baseline?: string }[] = [
  {
    id: 'typical-none',
    label: 'createToolFailure, typical failure, no redaction (baseline)',
    once: () => createToolFailure(typicalError(), ctx, { redactor: noRedaction }),
  },
  {
    id: 'typical',
    label: 'createToolFailure, typical failure (default sanitizer)',
    once: () => createToolFailure(typicalError(), ctx),
    baseline: 'typical-none',
  },
  {
    id: 'long-none',
    label: `createToolFailure, ${LONG.length}-char message with 6 secrets, no redaction (baseline)`,
    once: () => createToolFailure(longError(), ctx, { redactor: noRedaction }),
  },
  {
    id: 'long',
    label: `createToolFailure, ${LONG.length}-char message with 6 secrets (default sanitizer)`,
    once: () => createToolFailure(longError(), ctx),
    baseline: 'long-none',
  },
  {
    id: 'redact-typical',
    label: 'defaultRedactor.redactText, typical message',
    once: () => defaultRedactor.redactText(pick(typicalTexts)),
  },
  {
    id: 'redact-long',
    label: `defaultRedactor.redactText, ${LONG.length}-char message with 6 secrets`,
    once: () => defaultRedactor.redactText(pick(longTexts)),
  },
];

/** Runs the rows and returns them with a Markdown table. */
export async function runRedactionBench(
  log: (line: string) => void,
): Promise<{ rows: RedactionRow[]; table: string }> {
  const redacted = createToolFailure(longError(), ctx);
  if (JSON.stringify(redacted).includes('ghp_'))
    throw new Error('The long message was not redacted');
  const perRow = new Map(rows.map((row) => [row.id, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TIME_MS, warmupTime: 100, iterations: 50, throws: true });
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(i + round) % rows.length];
      bench.add(row.id, () => {
        for (let n = 0; n < BATCH; n++) row.once();
      });
    }
    await bench.run();
    for (const task of bench.tasks)
      perRow
        .get(task.name)
        ?.push(((task.result as { latency: { p50: number } }).latency.p50 * 1000) / BATCH);
    log(`redaction round ${round + 1}/${ROUNDS}`);
  }
  const results: RedactionRow[] = rows.map((row) => {
    const own = perRow.get(row.id) ?? [];
    const base = row.baseline ? (perRow.get(row.baseline) ?? []) : undefined;
    return {
      id: row.id,
      label: row.label,
      p50: median(own),
      best: min(own),
      ...(base ? { vsNoRedaction: median(own.map((value, i) => value / base[i])) } : {}),
    };
  });
  const table = [
    '| Redaction, per failure | median µs | best round µs | × no redaction |',
    '|---|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.label} | ${us(row.p50)} | ${us(row.best)} | ${row.vsNoRedaction === undefined ? '' : ratio(row.vsNoRedaction)} |`,
    ),
  ].join('\n');
  return { rows: results, table };
}
