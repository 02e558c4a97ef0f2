/**
 * The published packages and the public entry points of each, read from package.json: every
 * `exports` subpath with a `types` condition (`.`, `./health`, ...), as built declarations.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of the packages that are published (not `private`). */
export function publishedPackageDirs(root) {
  return readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')) && !manifest(dir).private);
}

/** The package's manifest. */
export function manifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/**
 * `./internal` entry points hold what our packages share with each other: no supported API, so
 * no report and no reference pages.
 */
export function isInternalSubpath(subpath) {
  return subpath === './internal';
}

/**
 * Each public entry point: `{ subpath, dts, reportName }` where `reportName` names its report
 * file (`nest` for `.`, `nest-health` for `./health`).
 */
export function entryPoints(dir) {
  const { name, exports } = manifest(dir);
  const short = name.split('/').pop();
  return Object.entries(exports)
    .filter(([subpath]) => !isInternalSubpath(subpath))
    .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
    .map(([subpath, target]) => ({
      subpath,
      dts: join(dir, target.types),
      reportName: subpath === '.' ? short : `${short}-${subpath.slice(2).replaceAll('/', '-')}`,
    }));
}
