import { transformSync } from '@swc/core';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Node module hooks that let a child process run this repo's TypeScript sources the way Jest
 * does: `.js` specifiers that name a `.ts` file resolve to it, and `.ts` files are compiled by
 * swc with legacy decorators and decorator metadata. A specifier listed (comma-separated) in
 * `TOOLSHIELD_FORBID_IMPORTS` fails to resolve, to prove an entry point never loads it.
 */
const forbidden = new Set((process.env.TOOLSHIELD_FORBID_IMPORTS ?? '').split(',').filter(Boolean));

export async function resolve(specifier, context, nextResolve) {
  if (forbidden.has(specifier)) {
    throw new Error(`${specifier} was imported by ${context.parentURL ?? 'the entry point'}`);
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
  const { code } = transformSync(source, {
    filename: fileURLToPath(url),
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
