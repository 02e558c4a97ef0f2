#!/usr/bin/env node
// Fails when the source files of a package import each other in a circle, type-only imports
// included: a circle through an interface file is still a circle for the reader and for
// bundlers. Reads every non-test .ts file under packages/*/src and apps/*/src, follows
// relative `import`/`export ... from` specifiers, and prints each strongly connected group.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
const isTest = (file) => /\.(spec|test|types)\.ts$/.test(file) || file.endsWith('.d.ts');

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !isTest(path)) out.push(path);
  }
  return out;
}

function relativeImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const targets = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (specifier?.startsWith('.')) {
      targets.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return targets;
}

/** Tarjan's strongly connected components; returns the groups with more than one file. */
function cycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group);
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return groups;
}

const projectDirs = ['packages', 'apps'].flatMap((parent) =>
  readdirSync(join(root, parent)).map((name) => join(root, parent, name, 'src')),
);
const graph = new Map();
for (const dir of projectDirs) {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
  for (const file of sourceFiles(dir)) graph.set(file, relativeImports(file));
}

const found = cycles(graph);
for (const group of found) {
  console.error(`import cycle: ${group.map((file) => relative(root, file)).join(' <-> ')}`);
}
console.log(`import cycles: ${found.length} in ${graph.size} files`);
process.exit(found.length === 0 ? 0 : 1);
