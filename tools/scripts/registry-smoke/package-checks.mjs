/**
 * What an installed @toolshield package must contain, checked where npm put it in the app:
 *
 * - LICENSE, README.md, package.json, dist/index.js and .d.ts, src/index.ts; no spec files,
 *   no tsbuildinfo, no citation of DESIGN.md;
 * - every source map (`.js.map`, `.d.ts.map`) points at sources that are in the package (we
 *   ship `src` without specs, so stack traces and "go to definition" land on real TypeScript);
 * - no test-only import: every package a compiled file imports is a Node builtin, the package
 *   itself, or one of its dependencies or peer dependencies (a spec helper or a devDependency
 *   that leaked into `dist` would fail for users who do not have it).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fail } from './steps.mjs';

const REQUIRED = [
  'LICENSE',
  'README.md',
  'package.json',
  'dist/index.js',
  'dist/index.d.ts',
  'src/index.ts',
];
/** `import ... from 'x'`, `export ... from 'x'`, `import 'x'` and `import('x')` in compiled ESM. */
const IMPORTS = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"]+)\1/gm,
  /^\s*import\s*(['"])([^'"]+)\1/gm,
  /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g,
];

/** Checks the package installed in `dir`; fails the smoke test with the first problem. */
export function checkInstalledPackage(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const name = manifest.name;
  for (const file of REQUIRED) {
    if (!existsSync(join(dir, file))) fail(`${name} does not ship ${file}`);
  }
  const declared = new Set([
    name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  for (const file of walk(dir)) {
    const path = relative(dir, file);
    if (/\.(spec|test)\.ts$|tsbuildinfo$/.test(path)) fail(`${name} ships ${path}`);
    const text = readFileSync(file, 'utf8');
    if (text.includes('DESIGN.md')) fail(`${name}: ${path} cites DESIGN.md`);
    if (path.endsWith('.map')) checkSourceMap(name, dir, file, text);
    else if (path.startsWith('dist/') && path.endsWith('.js'))
      checkImports(name, path, text, declared);
  }
}

function checkSourceMap(name, dir, file, text) {
  const map = JSON.parse(text);
  for (const source of map.sources) {
    const target = resolve(dirname(file), map.sourceRoot ?? '', source);
    if (!existsSync(target) || relative(dir, target).startsWith('..')) {
      fail(`${name}: ${relative(dir, file)} points at ${source}, which is not shipped`);
    }
  }
}

function checkImports(name, path, text, declared) {
  for (const [, , specifier] of IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)])) {
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    const pkg = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    if (builtinModules.includes(pkg) || declared.has(pkg)) continue;
    fail(
      `${name}: ${path} imports ${specifier}, which is neither a dependency nor a peer dependency`,
    );
  }
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
