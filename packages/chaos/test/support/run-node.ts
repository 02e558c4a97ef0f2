import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a child process did. */
export interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `node <args>` in the chaos package's folder as a real child process, with the repo's
 * TypeScript sources loadable (see ts-hooks.mjs), and resolves with its exit code and output.
 */
export function runNode(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<ChildRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      // --no-deprecation: Node 26 deprecates module.register(), which the hooks still use so
      // that Node 22.12 (our oldest) runs them too; the specs read stderr.
      [
        '--no-deprecation',
        '--conditions=@toolshield/source',
        '--import',
        './test/support/register-ts.mjs',
        ...args,
      ],
      {
        cwd: packageDir,
        env: { ...process.env, NODE_ENV: 'test', NODE_OPTIONS: '', ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? null : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs the CLI from source: `toolshield-chaos <args>`. */
export function runCli(
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): Promise<ChildRun> {
  return runNode(['src/cli/main.ts', ...args], env);
}
