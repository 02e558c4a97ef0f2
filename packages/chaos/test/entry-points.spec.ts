import { describe, expect, it } from '@jest/globals';
import { runNode } from './support/run-node.js';

/** Imports an entry point in a child process in which `@nestjs/testing` cannot be resolved. */
const importWithoutNestTesting = (entry: string) =>
  runNode(
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).sort().join(','));`,
    ],
    { TOOLSHIELD_FORBID_IMPORTS: '@nestjs/testing' },
  );

describe('entry points', () => {
  it('the main entry loads without @nestjs/testing: runtime injection needs no test package', async () => {
    const { code, stdout, stderr } = await importWithoutNestTesting('@toolshield/chaos');
    expect(stderr).not.toContain("Cannot find package '@nestjs/testing'");
    expect(code).toBe(0);
    const exported = stdout.trim().split(',');
    expect(exported).toEqual(expect.arrayContaining(['ChaosModule', 'withChaos', 'toJUnitXml']));
    expect(exported).not.toContain('runChaosHarness');
  }, 60_000);

  it('the harness entry is the one that needs it', async () => {
    const { code, stderr } = await importWithoutNestTesting('@toolshield/chaos/harness');
    expect(code).not.toBe(0);
    expect(stderr).toContain("Cannot find package '@nestjs/testing' imported from");
    const harness = await import('../src/harness/index.js');
    expect(Object.keys(harness)).toEqual(
      expect.arrayContaining([
        'runChaosHarness',
        'runChaosHarnessInJest',
        'runChaosCli',
        'CHAOS_EXIT_CODES',
        'ChaosAppStartError',
      ]),
    );
  }, 60_000);
});
