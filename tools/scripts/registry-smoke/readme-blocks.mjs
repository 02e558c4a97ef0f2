/**
 * The README code the smoke app compiles and runs, read from the READMEs at run time so the
 * test follows them. Each README's example is a fragment (it uses an `app` it never builds, a
 * model it never configures); the programs in readme-programs.mjs put them in context.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './steps.mjs';

/** The README of a package (`core`, ...) or of the repo (`.`). */
export function readme(root, name) {
  const path = name === '.' ? join(root, 'README.md') : join(root, 'packages', name, 'README.md');
  return { path, text: readFileSync(path, 'utf8') };
}

/** The first ```ts block of the README, or of its section under `heading`. */
export function firstTsBlock({ path, text }, heading) {
  const section =
    heading === undefined ? text : text.split(new RegExp(`^${escape(heading)}$`, 'm'))[1];
  const block = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (block === undefined) {
    fail(`${path} has no \`\`\`ts block${heading ? ` under "${heading}"` : ''}`);
  }
  return block;
}

/** The first ```ts block of the README that contains `marker`. */
export function tsBlockWith({ path, text }, marker) {
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .find((one) => one.includes(marker));
  if (block === undefined) fail(`${path} has no \`\`\`ts block with ${marker}`);
  return block;
}

/**
 * `block` with `from` replaced by `to`; a README that no longer contains `from` changed shape,
 * and the smoke program that adapts it must change with it.
 */
export function replaceIn(block, from, to, readmePath) {
  if (!block.includes(from)) {
    fail(
      `the example in ${readmePath} changed shape (no ${JSON.stringify(from)}): update tools/scripts/registry-smoke/readme-programs.mjs`,
    );
  }
  return block.replace(from, to);
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first ```ts block of a package's README with `from` replaced by `to` (see replaceIn). */
export function adaptedFirstBlock(root, name, from, to) {
  const doc = readme(root, name);
  return replaceIn(firstTsBlock(doc), from, to, doc.path);
}
