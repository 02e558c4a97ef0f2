import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ChaosRunReport } from './chaos-report.js';
import type { ChaosReportFormat } from './chaos-scenario.js';
import { toJsonReport } from './json-report.js';
import { toJUnitXml } from './junit-report.js';
import { toMarkdownReport } from './markdown-report.js';

const WRITERS: Readonly<
  Record<ChaosReportFormat, { file: string; render(report: ChaosRunReport): string }>
> = {
  json: { file: 'chaos-report.json', render: toJsonReport },
  junit: { file: 'chaos-junit.xml', render: toJUnitXml },
  markdown: { file: 'chaos-report.md', render: toMarkdownReport },
};

/**
 * Writes the report into `dir` (created if needed) in each format: `chaos-report.json`,
 * `chaos-junit.xml`, `chaos-report.md`. Returns the files written.
 *
 * @publicApi
 */
export async function writeChaosReports(
  report: ChaosRunReport,
  dir: string,
  formats: readonly ChaosReportFormat[] = ['json', 'junit', 'markdown'],
): Promise<string[]> {
  await mkdir(resolve(dir), { recursive: true });
  return Promise.all(
    formats.map(async (format) => {
      const writer = WRITERS[format];
      const file = join(resolve(dir), writer.file);
      await writeFile(file, writer.render(report), 'utf8');
      return file;
    }),
  );
}
