/**
 * The plain Nest 12 app of the registry smoke test: its package.json (third-party packages at
 * the ranges the workspace tests against, the chosen @toolshield packages at their versions)
 * and its compiler options.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './steps.mjs';

const manifestOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** The app's other dependencies, at the ranges the workspace tests against. */
const thirdParty = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-transformer',
  'class-validator',
  'reflect-metadata',
  'rxjs',
  'ioredis',
  '@modelcontextprotocol/sdk',
  'ai',
  '@openai/agents',
  'zod',
  '@langchain/core',
  'langchain',
  '@langchain/langgraph',
  '@mastra/core',
];

/** The range the workspace uses for a third-party package (root or any project manifest). */
export function rangeOf(root, name) {
  const manifests = [
    root,
    ...['packages', 'apps'].flatMap((group) =>
      readdirSync(join(root, group)).map((one) => join(root, group, one)),
    ),
  ]
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map(manifestOf);
  for (const manifest of manifests) {
    const range = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name];
    if (range !== undefined) return range;
  }
  return fail(`no workspace manifest depends on ${name}`);
}

/** The app's package.json, with these @toolshield packages (folder names) at their versions. */
export function appManifest(root, versions, packages) {
  return {
    name: 'registry-smoke-app',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(thirdParty.map((name) => [name, rangeOf(root, name)])),
      ...Object.fromEntries(packages.map((name) => [`@toolshield/${name}`, versions[name]])),
    },
    devDependencies: {
      typescript: rangeOf(root, 'typescript'),
      '@types/node': rangeOf(root, '@types/node'),
    },
  };
}

/** skipLibCheck off, so our .d.ts files are checked against the installed dependencies. */
export function appCompilerOptions() {
  return {
    target: 'es2023',
    lib: ['es2023', 'dom'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: false,
    types: ['node'],
    outDir: 'dist',
    rootDir: 'src',
  };
}
