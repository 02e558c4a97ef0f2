/**
 * A throwaway Verdaccio registry on 127.0.0.1: storage and htpasswd in a temp folder, the
 * `@toolshield/*` scope served only from what is published to it (never proxied, so an
 * install can only get what this run published), every other package proxied from the
 * registry npm is configured with, so an app that uses it as its only registry installs its
 * other dependencies too. A throwaway user is created and its token written to a temp
 * `.npmrc` that routes the `@toolshield` scope to this registry; the user's own `~/.npmrc` is
 * never read or written: every npm command gets `npm_config_userconfig` pointing at the temp
 * one.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, freePort, run } from './steps.mjs';

/**
 * Starts Verdaccio (from the workspace's node_modules) under `dir` and resolves with its URL,
 * the environment npm commands need to use it for `@toolshield/*` (`npmEnv`), and `stop()`.
 */
export async function startVerdaccio(root, dir) {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const upstream = run('npm', ['config', 'get', 'registry'], root).trim();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(dir, 'config.yaml');
  writeFileSync(config, configYaml(dir, upstream));
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      config,
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  try {
    await waitForPing(url, child);
    const token = await addUser(url);
    const userconfig = join(dir, '.npmrc');
    writeFileSync(
      userconfig,
      `@toolshield:registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`,
    );
    const npmEnv = { ...process.env, npm_config_userconfig: userconfig };
    return { url, npmEnv, stop, log: () => output };
  } catch (error) {
    stop();
    fail(`Verdaccio did not start: ${error.message}\n${output}`);
  }
}

function configYaml(dir, upstream) {
  return `storage: ${JSON.stringify(join(dir, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(join(dir, 'htpasswd'))}
    max_users: 1
uplinks:
  npmjs:
    url: ${JSON.stringify(upstream)}
    timeout: 60s
    max_fails: 5
packages:
  '@toolshield/*':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  '**':
    access: $all
    publish: $authenticated
    proxy: npmjs
server:
  keepAliveTimeout: 60
max_body_size: 100mb
web:
  enable: false
middlewares:
  audit:
    enabled: false
log:
  type: stdout
  format: pretty
  level: warn
`;
}

async function waitForPing(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`it exited with code ${child.exitCode}`);
    try {
      const response = await fetch(new URL('-/ping', url));
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no answer to /-/ping in 30 s');
}

/** Creates the throwaway publisher (a random password) and returns its token. */
async function addUser(url) {
  const name = 'registry-smoke';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: crypto.randomUUID(), type: 'user', roles: [] }),
  });
  const body = await response.json();
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`adding a user answered ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
