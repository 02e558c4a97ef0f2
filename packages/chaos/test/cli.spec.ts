import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChaosCli } from '../src/cli/run-chaos-cli.js';
import { runCli } from './support/run-node.js';

const SOUND = 'test/fixtures/inventory.chaos-config.ts';
const BROKEN = 'test/fixtures/broken.chaos-config.ts';

describe('toolshield-chaos, run as a child process', () => {
  it('prints its help, with the exit codes, and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: toolshield-chaos run <config.js> \[options\]/);
    expect(stdout).toContain('--scenario <name|glob>');
    expect(stdout).toContain('--seeds <n|a,b,...>');
    expect(stdout).toMatch(/ 3 {2}the application could not start/);
  }, 60_000);

  it('says in one line that the app cannot start, without a stack, and exits 3', async () => {
    const { code, stdout, stderr } = await runCli(['run', SOUND], { NODE_ENV: 'production' });
    expect(code).toBe(3);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^chaos: the application could not start \(scenario "rate limited lookups", seed 1\): Refusing to enable chaos injection: NODE_ENV is "production"/,
      ),
    ]);
    expect(stdout).toBe('');
  }, 60_000);

  it('runs the scenarios and seeds the flags pick, and prints the breakdown as tables', async () => {
    const dir = join(tmpdir(), `toolshield-chaos-cli-${process.pid}`);
    const { code, stdout, stderr } = await runCli([
      'run',
      SOUND,
      '--scenario',
      'rate*',
      '-s',
      'upstream outage',
      '--seeds',
      '4,9',
      '--reports',
      dir,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines.filter((line) => /^(PASS|FAIL) /.test(line))).toEqual([
      expect.stringMatching(
        /^PASS rate limited lookups \(2 seeds, 60 calls, breaker opened \d+x\)$/,
      ),
      expect.stringMatching(
        /^PASS upstream outage \(2 seeds, 60 calls, breaker opened [1-9]\d*x\)$/,
      ),
    ]);
    expect(stdout).not.toMatch(/\{"\d+":/);
    expect(stdout).toContain('calls by retries made:');
    expect(stdout).toMatch(/^scenario +0 retries +1 retries/m);
    expect(stdout).toMatch(/^scenario +0 retries +1 retries/m);
    expect(stdout).toMatch(/^scenario +breaker opened +p50 +p95 +p99 +outcomes$/m);
    const duration = String.raw`(\d+ ms|\d+\.\d s)`;
    expect(stdout).toMatch(
      new RegExp(
        String.raw`^rate limited lookups +\d+ +${duration} +${duration} +${duration} +(result|circuit_open) \d+`,
        'm',
      ),
    );
    expect(stdout).toMatch(/^outcomes: .*result \d+.*; breaker opened \d+x$/m);
    expect(lines.at(-2)).toBe('chaos: 2 passed, 0 failed');
    const json = JSON.parse(await readFile(join(dir, 'chaos-report.json'), 'utf8'));
    expect(json.scenarios.map((s: { name: string }) => s.name)).toEqual([
      'rate limited lookups',
      'upstream outage',
    ]);
    expect(json.scenarios[0].seeds.map((s: { seed: number }) => s.seed)).toEqual([4, 9]);
  }, 60_000);

  it('exits 1 when a scenario fails', async () => {
    const { code, stdout } = await runCli(['run', BROKEN]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL leaky search under rate limits/m);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('chaos: 0 passed, 1 failed');
  }, 60_000);

  it('answers a bad command line with one line and exit code 2', async () => {
    const { code, stdout, stderr } = await runCli(['run', SOUND, '--frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([
      expect.stringMatching(/^chaos: Unknown option '--frobnicate'/),
      'usage: toolshield-chaos run <config.js> [options] (see --help)',
      '',
    ]);
  }, 60_000);
});

/** The same CLI in process, for the cases that need no real process. */
describe('runChaosCli', () => {
  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      output: { log: (line: string) => out.push(line), error: (line: string) => err.push(line) },
    };
  };

  it('adds the stack under --verbose', async () => {
    const { err, output } = capture();
    const saved = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    try {
      expect(await runChaosCli(['run', SOUND, '--verbose', '-s', 'reset*'], output)).toBe(3);
    } finally {
      process.env['NODE_ENV'] = saved;
    }
    expect(err[0]).toMatch(
      /^chaos: the application could not start \(scenario "reset connections", seed 1\)/,
    );
    expect(err[1]).toMatch(/^ChaosInProductionError: Refusing[^\n]*\n\s+at /);
  });

  it('takes a seed count, and single seeds', async () => {
    const count = capture();
    expect(await runChaosCli(['run', SOUND, '-s', 'reset*', '--seeds', '2'], count.output)).toBe(0);
    expect(count.out[0]).toMatch(/^PASS reset connections \(2 seeds, 60 calls/);
    const single = capture();
    expect(await runChaosCli(['run', SOUND, '-s', 'RESET*', '--seed', '7'], single.output)).toBe(0);
    expect(single.out[0]).toMatch(/^PASS reset connections \(1 seeds, 30 calls/);
  });

  it.each([
    [['run'], /^chaos: run needs a config file$/],
    [['go'], /^chaos: unknown command "go"$/],
    [['run', SOUND, '--seeds', 'many'], /^chaos: --seeds takes whole numbers, not "many"$/],
    [['run', SOUND, '--seeds', '3', '--seed', '4'], /^chaos: give --seeds or --seed, not both$/],
    [
      ['run', SOUND, '-s', 'nothing*'],
      /^chaos: no scenario matches "nothing\*"; the scenarios are: "rate limited lookups", "reset connections", "upstream outage"$/,
    ],
    [
      ['run', 'test/fixtures/missing.config.js'],
      /^chaos: cannot load test\/fixtures\/missing.config.js: /,
    ],
  ])('answers %j with one line and exit code 2', async (args, message) => {
    const { err, output } = capture();
    expect(await runChaosCli(args, output)).toBe(2);
    expect(err[0]).toMatch(message);
    expect(err.join('\n')).not.toMatch(/\n\s+at /);
  });
});
