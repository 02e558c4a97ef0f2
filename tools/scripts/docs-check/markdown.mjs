/**
 * What the docs checks read from a Markdown file: its fenced code blocks (with the line each
 * starts on), its links outside code, and the anchors a code host gives its headings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every `.md` file under `dir`, recursively (skipping node_modules and dist). */
export function markdownFilesUnder(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...markdownFilesUnder(path));
    else if (entry.endsWith('.md')) found.push(path);
  }
  return found.sort();
}

/** A Markdown file as the checks see it: `{ path, name (repo-relative), text }`. */
export function readMarkdown(root, path) {
  return { path, name: relative(root, path), text: readFileSync(path, 'utf8') };
}

/**
 * The fenced code blocks of `text`: `{ lang, code, line, index }` with `line` the 1-based
 * line of the opening fence and `index` the block's place among the file's blocks.
 */
export function codeBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const open = lines[at].match(/^(\s*)(`{3,}|~{3,})\s*([\w-]*)/);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body = [];
    let end = at + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) {
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end]);
      end++;
    }
    blocks.push({
      lang,
      code: body.join('\n'),
      line: at + 1,
      endLine: end + 1,
      index: blocks.length,
    });
    at = end;
  }
  return blocks;
}

/** `text` with its fenced blocks and inline code blanked, so links inside code are not read. */
function withoutCode(text) {
  const lines = text.split('\n');
  for (const block of codeBlocks(text)) {
    for (let line = block.line - 1; line < block.endLine && line < lines.length; line++) {
      lines[line] = '';
    }
  }
  return lines.map((line) => line.replace(/`[^`]*`/g, '``'));
}

/** The links of a Markdown text outside code: `{ target, line }` (inline and reference style). */
export function linksOf(text) {
  const links = [];
  for (const [index, line] of withoutCode(text).entries()) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1], line: index + 1 });
    }
    const definition = line.match(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/);
    if (definition) links.push({ target: definition[1], line: index + 1 });
    for (const match of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
      links.push({ target: match[1], line: index + 1 });
    }
  }
  return links;
}

/** The anchors a code host (GitHub's slugger) gives the headings of `text`, plus explicit ids. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of withoutCodeBlocks(text)) {
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const slug = slugOf(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

function withoutCodeBlocks(text) {
  const lines = text.split('\n');
  for (const block of codeBlocks(text)) {
    for (let line = block.line - 1; line < block.endLine && line < lines.length; line++) {
      lines[line] = '';
    }
  }
  return lines;
}

/** GitHub's heading slug: lower case, markup and punctuation dropped, spaces to hyphens. */
export function slugOf(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The lines of `text` under the heading line `heading`, up to the next heading of its level or above. */
export function sectionOf(text, heading) {
  const level = heading.match(/^#+/)?.[0].length ?? 0;
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => {
    const hashes = line.match(/^(#+)\s/)?.[1].length;
    return hashes !== undefined && hashes <= level;
  });
  return (end === -1 ? rest : rest.slice(0, end)).join('\n');
}

/** The first cells of a section's table rows, as written between backticks (`name`). */
export function tableNames(section) {
  return section
    .split('\n')
    .map((line) => line.match(/^\|\s*`([^`]+)`/)?.[1])
    .filter((name) => name !== undefined);
}
