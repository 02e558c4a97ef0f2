/**
 * One API Extractor report (`<package>/api/<reportName>.api.md`) per entry point, from the
 * built declarations, with only the `@publicApi` surface in it: `@internal` declarations are
 * trimmed (API Extractor's "public" report variant). One TypeScript program per package
 * serves all its entry points.
 */
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Messages that say nothing about the surface: our JSDoc is not strict TSDoc, the tags are
 * checked by release-tags.mjs, and a dependency shipping `.ts` sources beside its types
 * (`@langchain/protocol`) is its own affair (the message carried the checkout's absolute path,
 * so a report written in one folder differed in another).
 */
const QUIET = [
  'ae-missing-release-tag',
  'ae-undocumented',
  'ae-internal-missing-underscore',
  'ae-unresolved-link',
  'ae-unresolved-inheritdoc-reference',
  'ae-unresolved-inheritdoc-base',
  'ae-setter-with-docs',
  'ae-different-release-tags',
  'ae-wrong-input-file-type',
];

/**
 * Runs API Extractor on each entry point of the package in `dir`. With `update`, writes the
 * reports; without, compares. Resolves with `{ entry, changed, errors }` per entry point.
 */
export function extractReports(dir, entries, { update }) {
  const temp = mkdtempSync(join(tmpdir(), 'api-report-'));
  if (update) mkdirSync(join(dir, 'api'), { recursive: true });
  try {
    const configs = entries.map((entry) => prepare(dir, entry, temp));
    const compilerState = CompilerState.create(configs[0], {
      additionalEntryPoints: entries.map((entry) => entry.dts),
    });
    return configs.map((config, index) => {
      const messages = [];
      const result = Extractor.invoke(config, {
        localBuild: update,
        compilerState,
        messageCallback: (message) => {
          message.handled = true;
          const said = message.logLevel === 'error' || message.logLevel === 'warning';
          if (said && !message.messageId.startsWith('console-api-report')) {
            messages.push(message.formatMessageWithLocation(dir));
          }
        },
      });
      return { entry: entries[index], changed: result.apiReportChanged, errors: messages };
    });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function prepare(dir, entry, temp) {
  return ExtractorConfig.prepare({
    configObjectFullPath: join(dir, 'api-extractor.json'),
    packageJsonFullPath: join(dir, 'package.json'),
    configObject: {
      projectFolder: dir,
      mainEntryPointFilePath: entry.dts,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'es2023',
            lib: ['es2023', 'dom'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            skipLibCheck: true,
            types: ['node'],
          },
          files: [entry.dts],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.reportName,
        reportFolder: join(dir, 'api'),
        reportTempFolder: temp,
        reportVariants: ['public'],
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          ...Object.fromEntries(
            QUIET.map((id) => [id, { logLevel: 'none', addToApiReportFile: false }]),
          ),
        },
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
      },
    },
  });
}
