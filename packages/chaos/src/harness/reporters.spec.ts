import { describe, expect, it } from '@jest/globals';
import { brokenRun, healthyRun } from '../../test/recorded-runs.js';
import { parseXml } from '../../test/xml-structure.js';
import {
  buildChaosRunReport,
  buildScenarioReport,
  summariseSeedRun,
  type ChaosRunReport,
  type ObservedSample,
} from './chaos-report.js';
import { toJsonReport } from './json-report.js';
import { toJUnitXml } from './junit-report.js';
import { toMarkdownReport } from './markdown-report.js';
import { latencyPercentiles } from './outcome-breakdown.js';

const nasty = `rate <limit> & "quotes" 'apostrophes' | pipes\nline\u0000nul\u001bescape\u0008bs \ud800 lone 😀`;

function sampleReport(): ChaosRunReport {
  const healthy = buildScenarioReport('rate limits & retries', [
    summariseSeedRun({ seed: 1, run: healthyRun(), durationMs: 12 }),
    summariseSeedRun({ seed: 2, run: healthyRun(), durationMs: 8 }),
  ]);
  const broken = buildScenarioReport(nasty, [
    summariseSeedRun({ seed: 7, run: healthyRun(), durationMs: 5 }),
    summariseSeedRun({ seed: 8, run: brokenRun(), durationMs: 30 }),
  ]);
  return buildChaosRunReport(new Date(Date.UTC(2026, 10, 22, 12)), 1_234, [healthy, broken]);
}

describe('summariseSeedRun and the report builders', () => {
  it('judge runs, count retries, keep one sample per outcome kind, and total up', () => {
    const seed = summariseSeedRun({ seed: 1, run: healthyRun(), durationMs: 12 });
    expect(seed).toMatchObject({
      seed: 1,
      status: 'PASS',
      calls: 2,
      violations: [],
      retryCounts: { 0: 1, 1: 1 },
    });
    expect(seed.samples.map((sample) => sample.outcome.success)).toEqual([true, false]);
    expect(seed).toMatchObject({
      outcomes: { result: 1, circuit_open: 1 },
      breakerOpenings: 1,
      latencyMs: { p50: 10, p95: 10, p99: 10, max: 10 },
    });
    const report = sampleReport();
    expect(report.status).toBe('FAIL');
    expect(report.totals).toEqual({
      scenarios: 2,
      passed: 1,
      failed: 1,
      seedRuns: 4,
      calls: 8,
      outcomes: { result: 3, circuit_open: 4 },
      breakerOpenings: 3,
    });
    expect(report.scenarios.map((scenario) => scenario.status)).toEqual(['PASS', 'FAIL']);
  });
});

describe('toJUnitXml', () => {
  it('is checked by a reader that does reject broken XML', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(/closes/);
    expect(() => parseXml('<a x="1 & 2"/>')).toThrow(/entity/);
    expect(() => parseXml('<a>\u0001</a>')).toThrow(/forbidden character/);
    expect(() => parseXml('<a x=1/>')).toThrow(/unquoted/);
  });

  it('is well-formed XML with one testcase per scenario x seed and failures carrying the violations', () => {
    const xml = toJUnitXml(sampleReport());
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({
      tests: '4',
      failures: '1',
      errors: '0',
      time: '1.234',
    });
    const suites = root.children;
    expect(
      suites.map((suite) => [
        suite.attributes['name'],
        suite.attributes['tests'],
        suite.attributes['failures'],
      ]),
    ).toEqual([
      ['rate limits & retries', '2', '0'],
      [
        nasty
          .replace('\u0000', '\\u0000')
          .replace('\u001b', '\\u001b')
          .replace('\u0008', '\\u0008')
          .replace('\ud800', '\\ud800'),
        '2',
        '1',
      ],
    ]);
    const properties = suites[0]?.children[0];
    expect(properties?.name).toBe('properties');
    expect(
      Object.fromEntries(
        (properties?.children ?? []).map((p) => [p.attributes['name'], p.attributes['value']]),
      ),
    ).toEqual({
      'outcomes.result': '2',
      'outcomes.circuit_open': '2',
      'retries.0': '2',
      'retries.1': '2',
      'breaker.openings': '2',
      'latency.p50Ms': '10',
      'latency.p95Ms': '10',
      'latency.p99Ms': '10',
      'latency.maxMs': '10',
    });
    const cases = suites.flatMap((suite) =>
      suite.children.filter((child) => child.name === 'testcase'),
    );
    expect(cases.map((testCase) => testCase.attributes['name']?.slice(-8))).toEqual([
      '[seed 1]',
      '[seed 2]',
      '[seed 7]',
      '[seed 8]',
    ]);
    const failure = cases[3]?.children.find((child) => child.name === 'failure');
    expect(failure?.attributes).toEqual({
      message: '9 invariant violation(s)',
      type: 'executor_never_threw',
    });
    expect(failure?.text).toContain('[retry_after_honoured] search b1: attempt 2 started at 500');
    expect(cases[0]?.children.map((child) => child.name)).toEqual(['system-out']);
    expect(JSON.parse(cases[0]?.children[0]?.text ?? '')).toMatchObject({
      retryCounts: { 0: 1, 1: 1 },
      outcomes: { result: 1, circuit_open: 1 },
      breakerOpenings: 1,
      latencyMs: { p50: 10, p95: 10, p99: 10 },
    });
  });

  it('keeps newlines in attributes and survives samples that JSON cannot hold', () => {
    const report = sampleReport();
    const seed = summariseSeedRun({ seed: 3, run: healthyRun(), durationMs: 1 });
    const circular: Record<string, unknown> = { big: 10n };
    circular['self'] = circular;
    const [first] = seed.samples as [ObservedSample];
    const withOddSample = {
      ...seed,
      samples: [
        { ...first, outcome: { ...first.outcome, output: circular } as ObservedSample['outcome'] },
      ],
    };
    const odd = buildChaosRunReport(new Date(0), 1, [
      buildScenarioReport('two\nlines', [withOddSample]),
      ...report.scenarios,
    ]);
    const root = parseXml(toJUnitXml(odd));
    expect(root.children[0]?.attributes['name']).toBe('two\nlines');
    expect(root.children[0]?.children[1]?.children[0]?.text).toContain(
      '"output":{"big":"10n","self":"[Circular]"}',
    );
  });
});

describe('toJsonReport', () => {
  it('round-trips the report, breakdown included', () => {
    const report = sampleReport();
    const json = JSON.parse(toJsonReport(report));
    expect(json).toEqual(JSON.parse(JSON.stringify(report)));
    expect(json.scenarios[0]).toMatchObject({
      retryCounts: { 0: 2, 1: 2 },
      outcomes: { result: 2, circuit_open: 2 },
      breakerOpenings: 2,
      latencyMs: { p50: 10, p95: 10, p99: 10, max: 10 },
    });
  });
});

describe('latencyPercentiles', () => {
  it('takes the nearest rank', () => {
    const durations = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(latencyPercentiles(durations)).toEqual({ p50: 50, p95: 95, p99: 99, max: 100 });
    expect(latencyPercentiles([7])).toEqual({ p50: 7, p95: 7, p99: 7, max: 7 });
    expect(latencyPercentiles([])).toEqual({ p50: 0, p95: 0, p99: 0, max: 0 });
  });
});

describe('toMarkdownReport', () => {
  it('has a PASS/FAIL table row per scenario and lists the violations of failing seeds', () => {
    const markdown = toMarkdownReport(sampleReport());
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Chaos run: FAIL');
    expect(lines).toContain('| rate limits & retries | PASS | 2 | - | 4 | 0 |');
    const failingRow = lines.find((line) => line.includes('| FAIL |'));
    expect(failingRow).toMatch(/^\| rate <limit> & "quotes" 'apostrophes' \\\| pipes line/);
    expect(failingRow).toMatch(/\| FAIL \| 2 \| 8 \| 4 \| 9 \|$/);
    expect(markdown).toContain(
      '- `nothing_left_running`: 2 timers or handles still open after close',
    );
    expect(markdown).toContain('Outcomes: circuit_open 4, result 3. Breaker openings: 3.');
    expect(lines).toContain(
      '| Scenario | Outcomes | 0 retries | 1 retries | 2 retries | Breaker openings | p50 | p95 | p99 |',
    );
    expect(lines).toContain(
      '| rate limits & retries | result 2, circuit_open 2 | 2 | 2 | 0 | 2 | 10 ms | 10 ms | 10 ms |',
    );
    expect(markdown.endsWith('\n')).toBe(true);
  });
});
