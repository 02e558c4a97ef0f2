#!/usr/bin/env node
/**
 * The API reference under docs/api/ (Markdown, committed): TypeDoc with typedoc-plugin-markdown
 * over each published package's entry points (the sources its `exports` map names), from the
 * same JSDoc as the API reports; `@internal` declarations are left out. One folder per
 * package, `docs/api/<package>/`. Source links are off, so the pages change only when the
 * API or its documentation does.
 *
 * Usage: node tools/scripts/api-docs.mjs   (part of `npm run api:update`)
 */
import { rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';
import { isInternalSubpath, manifest, publishedPackageDirs } from './api-report/entry-points.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'docs/api');
rmSync(out, { recursive: true, force: true });

let failed = false;
for (const dir of publishedPackageDirs(root)) {
  const { name, exports } = manifest(dir);
  const entryPoints = Object.entries(exports)
    .filter(([subpath]) => !isInternalSubpath(subpath))
    .map(([, target]) => target?.['@toolshield/source'])
    .filter((source) => typeof source === 'string')
    .map((source) => join(dir, source));
  const app = await Application.bootstrapWithPlugins({
    name,
    entryPoints,
    tsconfig: join(dir, 'tsconfig.lib.json'),
    out: join(out, basename(dir)),
    plugin: ['typedoc-plugin-markdown'],
    readme: 'none',
    excludeInternal: true,
    excludePrivate: true,
    disableSources: true,
    hideGenerator: true,
    outputFileStrategy: 'modules',
    modifierTags: ['@publicApi', '@internal', '@packageDocumentation'],
    excludeTags: ['@publicApi'],
    logLevel: 'Error',
  });
  const project = await app.convert();
  if (project === undefined) {
    failed = true;
    continue;
  }
  await app.generateOutputs(project);
  console.log(`api-docs: docs/api/${basename(dir)} (${name})`);
}
process.exitCode = failed ? 1 : 0;
