import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
};
const launcher = manifest.bin['toolshield-chaos'] ?? '';

/** Runs the launcher copied into `dir/bin`, as npm's bin link would. */
function runLauncher(
  dir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(packageDir, launcher), join(dir, launcher));
  return new Promise((resolve) => {
    execFile(process.execPath, [join(dir, launcher), '--help'], (error, stdout, stderr) => {
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        stdout,
        stderr,
      });
    });
  });
}

describe('the toolshield-chaos bin', () => {
  it('is a file of the source tree, so npm links it into node_modules/.bin before any build', () => {
    expect(launcher).toMatch(/^\.\/bin\//);
    expect(existsSync(join(packageDir, launcher))).toBe(true);
    expect(manifest.files).toContain('bin');
  });

  it('runs the compiled CLI with its arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-bin-'));
    try {
      mkdirSync(join(dir, 'dist/cli'), { recursive: true });
      writeFileSync(
        join(dir, 'dist/cli/main.js'),
        'console.log(`cli ${process.argv.slice(2).join(" ")}`);\n',
      );
      const run = await runLauncher(dir);
      expect(run).toMatchObject({ code: 0, stdout: 'cli --help\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in one line how to build when the CLI is not built yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-bin-'));
    try {
      const run = await runLauncher(dir);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringContaining('not built (dist/cli/main.js is missing)'),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
