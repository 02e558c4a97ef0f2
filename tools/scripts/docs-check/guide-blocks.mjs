/**
 * The guide's TypeScript blocks as files of a throwaway project under tools/dist/guide-blocks:
 * one folder per page, one file per block. A block whose first line is a comment naming a
 * file (`// weather.tools.ts`) is saved under that name, so the page's other blocks import
 * it as a reader's project would (`./weather.tools.js`); the others are `block-<n>.ts`.
 * A block named `main.ts` is a program: it is run, and a ```text block right after it lists
 * lines its output must contain.
 */
import { basename, dirname, join, relative } from 'node:path';
import { codeBlocks, markdownFilesUnder, readMarkdown } from './markdown.mjs';

const NAMED = /^\/\/ ([\w./-]+\.tsx?)\s*$/;
const TYPESCRIPT = new Set(['ts', 'typescript', 'tsx']);

/**
 * Every TypeScript block of docs/guide: `{ page, line, file, code, program, expectedLines }`
 * with `file` the absolute path it is written to under `outDir`.
 */
export function guideBlocks(root, outDir) {
  const guide = join(root, 'docs', 'guide');
  return markdownFilesUnder(guide).flatMap((path) => {
    const doc = readMarkdown(root, path);
    const folder = join(outDir, relative(guide, path).replace(/\.md$/, ''));
    const blocks = codeBlocks(doc.text);
    return blocks
      .filter((block) => TYPESCRIPT.has(block.lang))
      .map((block) => {
        const name = block.code.split('\n')[0].match(NAMED)?.[1] ?? `block-${block.index + 1}.ts`;
        const next = blocks[block.index + 1];
        const outputFollows =
          next?.lang === 'text' && onlyBlankBetween(doc.text, block.endLine, next.line);
        return {
          page: doc.name,
          line: block.line,
          file: join(folder, name),
          code: block.code,
          program: basename(name) === 'main.ts',
          expectedLines:
            basename(name) === 'main.ts' && outputFollows
              ? next.code
                  .split('\n')
                  .map((one) => one.trim())
                  .filter(Boolean)
              : [],
        };
      });
  });
}

function onlyBlankBetween(text, afterLine, beforeLine) {
  return text
    .split('\n')
    .slice(afterLine, beforeLine - 1)
    .every((line) => line.trim() === '');
}

/**
 * The compiler options of the guide's own tsconfig block (the one named `// tsconfig.json`
 * on the consumer-app page), so the blocks compile with what the guide tells a reader to use.
 */
export function guideTsconfig(root, ts) {
  const page = join(root, 'docs', 'guide', 'setting-up-a-consumer-app.md');
  const block = codeBlocks(readMarkdown(root, page).text).find((one) =>
    one.code.startsWith('// tsconfig.json'),
  );
  if (block === undefined) throw new Error(`${relative(root, page)} has no tsconfig.json block`);
  const parsed = ts.parseConfigFileTextToJson('tsconfig.json', block.code);
  if (parsed.error) {
    throw new Error(
      `the tsconfig.json block of ${relative(root, page)}:${block.line} is not valid`,
    );
  }
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    parsed.config.compilerOptions,
    dirname(page),
  );
  if (errors.length > 0) {
    throw new Error(
      `the tsconfig.json block of ${relative(root, page)}:${block.line}: ${errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, ' ')).join('; ')}`,
    );
  }
  return options;
}
