import type { JsonCutSummary } from './cut-json.js';

const NUMBER = new Intl.NumberFormat('en-US');

/**
 * The model's account of a cut: `showing 40 of 12,000 items; 1.9 MB omitted`.
 *
 * @publicApi
 */
export function describeCut(summary: JsonCutSummary): string {
  const parts: string[] = [];
  if (summary.items) {
    parts.push(`showing ${count(summary.items.shown)} of ${count(summary.items.total)} items`);
  } else if (summary.characters) {
    const { shown, total } = summary.characters;
    parts.push(`showing ${count(shown)} of ${count(total)} characters`);
  }
  if (summary.droppedKeys > 0) {
    parts.push(
      `${count(summary.droppedKeys)} ${summary.droppedKeys === 1 ? 'field' : 'fields'} left out`,
    );
  }
  parts.push(`${formatBytes(summary.totalBytes - summary.shownBytes)} omitted`);
  return parts.join('; ');
}

/** `512 B`, `3.4 KB`, `1.9 MB` (powers of 1,000). @publicApi */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function count(value: number): string {
  return NUMBER.format(value);
}
