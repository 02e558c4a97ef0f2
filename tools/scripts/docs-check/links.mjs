/**
 * The link check: every relative link in docs/ and the READMEs points at a file of the repo,
 * and a `#fragment` into a Markdown file at one of its headings. Links to this repository on
 * its code host (`https://github.com/toolshield/toolshield/tree/main/...`) are read as the
 * local path they name; other web links are not fetched (the check runs offline). The
 * generated API reference (docs/api/) is checked for files only: its generator numbers the
 * anchors of same-named symbols its own way, and `npm run api:update` rewrites it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { anchorsOf, linksOf, markdownFilesUnder, readMarkdown } from './markdown.mjs';

const REPO_ON_HOST = /^https:\/\/github\.com\/toolshield\/toolshield\/(?:tree|blob)\/main\/?/;

/** The Markdown files the link check reads. */
export function checkedMarkdownFiles(root) {
  const readmes = ['packages', 'apps']
    .flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name, 'README.md')),
    )
    .filter((path) => existsSync(path));
  const top = ['README.md', 'CONTRIBUTING.md']
    .map((name) => join(root, name))
    .filter((path) => existsSync(path));
  return [...top, ...readmes, ...markdownFilesUnder(join(root, 'docs'))];
}

/** Every broken link, as `file:line: message`. */
export function brokenLinks(root) {
  const anchorCache = new Map();
  const anchorsIn = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readMarkdown(root, path).text));
    return anchorCache.get(path);
  };
  const problems = [];
  for (const path of checkedMarkdownFiles(root)) {
    const doc = readMarkdown(root, path);
    for (const { target, line } of linksOf(doc.text)) {
      const problem = problemWith(root, path, target, anchorsIn);
      if (problem) problems.push(`${doc.name}:${line}: ${problem}`);
    }
  }
  return problems;
}

function problemWith(root, from, target, anchorsIn) {
  const local = target.replace(REPO_ON_HOST, `${relative(dirname(from), root) || '.'}/`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(local)) return undefined;
  const [pathPart, fragment] = splitFragment(local);
  const file = pathPart === '' ? from : join(dirname(from), decodeURIComponent(pathPart));
  if (!existsSync(file)) return `${target} points at ${relative(root, file)}, which does not exist`;
  if (fragment === undefined || !file.endsWith('.md') || isGenerated(root, file)) return undefined;
  return anchorsIn(file).has(decodeURIComponent(fragment))
    ? undefined
    : `${target}: ${relative(root, file)} has no heading with the anchor #${fragment}`;
}

function isGenerated(root, file) {
  return relative(root, file).startsWith(join('docs', 'api'));
}

function splitFragment(target) {
  const hash = target.indexOf('#');
  return hash === -1 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}
