import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { runCli } from './support/run-node.js';

const SOUND = 'test/fixtures/inventory.chaos-config.ts';
const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** The CLI in a child process in which `@nestjs/testing` cannot be resolved (an app without it). */
const runWithoutNestTesting = (args: readonly string[]) =>
  runCli(args, { TOOLSHIELD_FORBID_IMPORTS: '@nestjs/testing' });

describe('toolshield-chaos in an app without @nestjs/testing (an optional peer)', () => {
  it('prints its help and exits 0', async () => {
    const { code, stdout, stderr } = await runWithoutNestTesting(['--help']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: toolshield-chaos run <config.js> \[options\]/);
  }, 60_000);

  it('prints its version and exits 0', async () => {
    const { code, stdout, stderr } = await runWithoutNestTesting(['--version']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${version}\n`);
  }, 60_000);

  it('answers a bad command line with the usage lines and exit code 2', async () => {
    const { code, stdout, stderr } = await runWithoutNestTesting(['frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'chaos: unknown command "frobnicate"\nusage: toolshield-chaos run <config.js> [options] (see --help)\n',
    );
  }, 60_000);

  it('refuses a run in one line that says what to install, without a stack, and exits 2', async () => {
    const { code, stdout, stderr } = await runWithoutNestTesting(['run', SOUND]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'chaos: the harness needs @nestjs/testing; install it next to @nestjs/core (npm install -D @nestjs/testing@^12)\n',
    );
  }, 60_000);
});
