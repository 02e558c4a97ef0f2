/**
 * What every part of the registry smoke test shares: failing with one line, timed progress
 * lines, running a command and reading its output, a free port on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

const started = Date.now();

/** Stops the smoke test with a one-line reason. */
export function fail(message) {
  console.error(`registry-smoke: FAIL ${message}`);
  process.exit(1);
}

/** Prints a progress line with the seconds since the start. */
export function step(message) {
  console.log(`registry-smoke: ${message} (${seconds()} s)`);
}

/** Seconds since the smoke test started, one decimal. */
export function seconds() {
  return ((Date.now() - started) / 1000).toFixed(1);
}

/** Runs a command to completion and returns its stdout; throws with stdout and stderr attached. */
export function run(command, args, cwd, options = {}) {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

/** Like `run`, but a failure stops the smoke test, naming what failed and what it printed. */
export function runOrFail(what, command, args, cwd, options = {}) {
  try {
    return run(command, args, cwd, options);
  } catch (error) {
    fail(`${what}:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
}

/** The line `RESULT <json>` a smoke program printed, parsed (Nest may log around it). */
export function resultOf(what, stdout) {
  const line = stdout.split('\n').find((one) => one.startsWith('RESULT '));
  if (line === undefined) fail(`${what} printed no RESULT line:\n${stdout}`);
  return JSON.parse(line.slice('RESULT '.length));
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}
