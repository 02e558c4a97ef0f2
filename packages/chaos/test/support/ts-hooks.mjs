import { transformSync } from '@swc/core';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createJestConfig } from '../../../../jest.preset.js';

/**
 * Node module hooks that let a child process run this repo's TypeScript sources the way Jest
 * does: `.js` specifiers that name a `.ts` file resolve to it, and `.ts` files are compiled by
 * swc with the options of the workspace's Jest preset (legacy decorators, decorator metadata). A specifier listed (comma-separated) in
 * `TOOLSHIELD_FORBID_IMPORTS` fails to resolve as a package that is not installed does
 * (`ERR_MODULE_NOT_FOUND`, "Cannot find package '<name>' imported from <file>"), to prove an
 * entry point never loads it and to show what an app without it sees.
 */
const [, swcOptions] = createJestConfig(process.cwd()).transform['^.+\\.ts$'];
const forbidden = new Set((process.env.TOOLSHIELD_FORBID_IMPORTS ?? '').split(',').filter(Boolean));

export async function resolve(specifier, context, nextResolve) {
  if (forbidden.has(specifier)) {
    const error = new Error(
      `Cannot find package '${specifier}' imported from ${context.parentURL ?? 'the entry point'} (TOOLSHIELD_FORBID_IMPORTS)`,
    );
    throw Object.assign(error, { code: 'ERR_MODULE_NOT_FOUND' });
  }
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (!/^\.{1,2}\/.*\.js$/.test(specifier)) throw error;
    return nextResolve(specifier.replace(/\.js$/, '.ts'), context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const source = await readFile(fileURLToPath(url), 'utf8');
  const { code } = transformSync(source, { ...swcOptions, filename: fileURLToPath(url) });
  return { format: 'module', source: code, shortCircuit: true };
}
