#!/usr/bin/env node
/**
 * The docs checks `npm test` runs (the tools project's `test` target, after the libraries are
 * built): every link in docs/ and the READMEs resolves; every TypeScript block of the guide
 * compiles, in one program, against the BUILT packages with the guide's own tsconfig, and
 * each `main.ts` block runs and prints what the page says; the reference pages list every
 * option, error type and event the code has. A failure names the page, the line and why.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { guideBlocks, guideTsconfig } from './docs-check/guide-blocks.mjs';
import { brokenLinks } from './docs-check/links.mjs';
import {
  errorTableProblems,
  REFERENCE_PROBE,
  typeReferenceProblems,
} from './docs-check/reference-pages.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = join(root, 'tools', 'dist', 'guide-blocks');
const PROGRAM_TIMEOUT_MS = 60_000;
const started = Date.now();
const problems = [];
const step = (what, since) => console.log(`docs check: ${what} (${Date.now() - since} ms)`);

let since = Date.now();
problems.push(...brokenLinks(root));
step('links', since);

since = Date.now();
const blocks = writeBlocks(guideBlocks(root, outDir));
const probeFile = join(outDir, 'reference-probe.ts');
writeFileSync(probeFile, REFERENCE_PROBE);
const program = ts.createProgram([...blocks.map((block) => block.file), probeFile], {
  ...guideTsconfig(root, ts),
  rootDir: outDir,
  outDir: undefined,
  noEmit: false,
  noEmitOnError: true,
  skipLibCheck: true,
  declaration: false,
  sourceMap: false,
  incremental: false,
  composite: false,
});
const compileProblems = ts.getPreEmitDiagnostics(program).map((d) => describeDiagnostic(d, blocks));
problems.push(...compileProblems);
step(`${blocks.length} guide blocks compiled`, since);

since = Date.now();
problems.push(...typeReferenceProblems(root, ts, program, probeFile));
problems.push(...(await errorTableProblems(root)));
step('reference pages', since);

if (compileProblems.length === 0) {
  program.emit();
  since = Date.now();
  const programs = blocks.filter((block) => block.program);
  problems.push(...(await runAll(programs, 2)));
  step(`${programs.length} guide programs ran`, since);
}

if (problems.length > 0) {
  console.error(
    `\n${problems.length} docs problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exitCode = 1;
} else {
  console.log(`docs check: all good in ${Date.now() - started} ms`);
}

function writeBlocks(found) {
  rmSync(outDir, { recursive: true, force: true });
  const byFile = new Map();
  for (const block of found) {
    const twin = byFile.get(block.file);
    if (twin) {
      problems.push(
        `${block.page}:${block.line}: names ${relative(outDir, block.file)}, as the block at line ${twin.line} does`,
      );
      continue;
    }
    byFile.set(block.file, block);
    mkdirSync(dirname(block.file), { recursive: true });
    writeFileSync(block.file, block.code);
  }
  return [...byFile.values()];
}

function describeDiagnostic(diagnostic, written) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ');
  const block = written.find((one) => one.file === diagnostic.file?.fileName);
  if (block === undefined || diagnostic.start === undefined) {
    return `${diagnostic.file ? relative(root, diagnostic.file.fileName) : 'tsc'}: ${message}`;
  }
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${block.page}:${block.line + 1 + line} (block at line ${block.line}, ${relative(outDir, block.file)}): TS${diagnostic.code} ${message}`;
}

async function runAll(programs, concurrency) {
  const found = [];
  const queue = [...programs];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) found.push(...(await run(next)));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return found;
}

function run(block) {
  const script = block.file.replace(/\.tsx?$/, '.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd: dirname(script),
      env: { ...process.env, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: PROGRAM_TIMEOUT_MS,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const where = `${block.page}:${block.line} (${relative(outDir, block.file)})`;
      if (code !== 0) {
        resolve([`${where} exited ${signal ?? code}:\n${indent(output)}`]);
        return;
      }
      const missing = block.expectedLines.filter((line) => !output.includes(line));
      resolve(
        missing.length === 0
          ? []
          : [
              `${where} did not print what the page shows after it:\n${indent(missing.join('\n'))}\n  it printed:\n${indent(output)}`,
            ],
      );
    });
  });
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
