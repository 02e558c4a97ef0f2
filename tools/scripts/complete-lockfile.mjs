#!/usr/bin/env node
/**
 * Restores the lockfile entries of platform-specific optional packages (native binaries for
 * other operating systems and CPUs) that npm could not resolve when the lockfile was written,
 * for example because the registry at hand serves only this machine's platform.
 *
 * Without those entries `npm ci` refuses the lockfile ("Missing: <pkg>@ from lock file") on
 * every machine. Each restored entry names the version the parent pins, is optional, and
 * carries the os/cpu/libc its name encodes, so npm skips it without a download on other
 * platforms and fetches it normally where it belongs.
 *
 * Usage: node tools/scripts/complete-lockfile.mjs [--check]   (run after `npm install`)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../../package-lock.json', import.meta.url));
const check = process.argv.includes('--check');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

/** The platform a native package's name encodes (`@swc/core-linux-arm64-musl`), if any. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part)) ?? (parts.includes('arm') ? 'arm' : undefined);
  if (!os || !cpu) return undefined;
  const libc = parts.some((part) => part.startsWith('musl')) ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

/** Where npm would place `name` for the package at `parentPath` (hoisted to the root). */
const rootPathOf = (name) => `node_modules/${name}`;

const added = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path}/node_modules/${name}`;
    if (packages[nested] || packages[rootPathOf(name)]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    packages[rootPathOf(name)] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added.push(`${name}@${spec}`);
  }
}

if (added.length === 0) {
  console.log('lockfile: every platform package is listed');
} else if (check) {
  console.error(`lockfile: ${added.length} platform packages missing (run node tools/scripts/complete-lockfile.mjs):\n  ${added.join('\n  ')}`);
  process.exit(1);
} else {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`lockfile: restored ${added.length} platform packages`);
}
