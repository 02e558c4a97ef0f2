#!/usr/bin/env node
/**
 * The public API of each published package as a checked artefact (ADR 0032):
 *
 * - every export of every entry point (package.json `exports`) must be tagged `@publicApi` or
 *   `@internal` in its JSDoc (release-tags.mjs);
 * - API Extractor writes the `@publicApi` surface of each entry point to
 *   `packages/<name>/api/<entry>.public.api.md` (committed); without --update, a surface
 *   that differs from the committed report fails, naming the command that updates it.
 *
 * Reads the built declarations (`dist`): build first (`nx run <project>:api` does).
 *
 * Usage: node tools/scripts/api-report.mjs [--update] [package folder...]
 *   no folder: the package in the current directory, or every published package from the root
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryPoints, manifest, publishedPackageDirs } from './api-report/entry-points.mjs';
import { extractReports } from './api-report/extract.mjs';
import { untaggedExports } from './api-report/release-tags.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const update = process.argv.includes('--update');
const named = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const dirs =
  named.length > 0
    ? named.map((dir) => resolve(dir))
    : existsSync(join(process.cwd(), 'package.json')) && process.cwd() !== root
      ? [process.cwd()]
      : publishedPackageDirs(root);

let failed = false;
for (const dir of dirs) {
  const { name } = manifest(dir);
  const entries = entryPoints(dir);
  for (const entry of entries) {
    if (!existsSync(entry.dts)) {
      console.error(`api: ${relative(root, entry.dts)} is missing: build ${name} first`);
      process.exit(1);
    }
  }
  const untagged = untaggedExports(entries);
  if (untagged.length > 0) {
    failed = true;
    console.error(
      `api: ${name} exports without @publicApi or @internal in their JSDoc:\n  ${untagged.join('\n  ')}`,
    );
  }
  for (const { entry, changed, errors } of extractReports(dir, entries, { update })) {
    const report = relative(root, join(dir, 'api', `${entry.reportName}.public.api.md`));
    for (const error of errors) console.error(`api: ${name} (${entry.subpath}): ${error}`);
    if (errors.length > 0) failed = true;
    if (changed && !update) {
      failed = true;
      console.error(
        `api: the public API of ${name} (${entry.subpath}) differs from ${report}: if the change is meant, run \`npm run api:update\` and commit the report`,
      );
    } else {
      console.log(`api: ${report} ${changed ? 'written' : 'unchanged'}`);
    }
  }
}
process.exitCode = failed ? 1 : 0;
