/** A throwaway redis-server on 127.0.0.1 (a free port, no persistence) for the Redis checks. */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';

import { fail, freePort } from './steps.mjs';

/** Starts redis-server in `dir`; resolves with its URL and a `stop()`. */
export async function startRedisServer(dir) {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => child.kill('SIGKILL');
  await new Promise((ready, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start in 5 s')), 5_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`redis-server could not start (.ci/redis.sh installs it): ${error.message}`),
      );
    });
    child.stdout.on('data', (chunk) => {
      if (!String(chunk).includes('Ready to accept connections')) return;
      clearTimeout(timer);
      ready();
    });
  }).catch((error) => {
    stop();
    fail(error.message);
  });
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop };
}
