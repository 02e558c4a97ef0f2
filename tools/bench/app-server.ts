/** The built sample agent's processes (`apps/sample-agent/dist/...`), for the app benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workspace root. */
export const workspace = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

/**
 * Starts `node <script>` in apps/sample-agent on a free port (`PORT=0`) with `env` on top of
 * this process' environment, and resolves once it prints `listening on <url>`.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  script = 'dist/serve.js',
): Promise<Server> {
  const child = spawn(process.execPath, [script], {
    cwd: join(workspace, 'apps', 'sample-agent'),
    env: { ...process.env, PORT: '0', CHAOS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s)]+)/.exec(out);
      if (match?.[1]) done(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return { url, child };
}

/** SIGTERM, and resolves once the process has exited. */
export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  await exited;
}
