/**
 * The reference pages checked against the code: each options table lists exactly the
 * properties of its options type (read with the TypeScript compiler from the built
 * packages' declarations), the error table states each error type's traits as core defines
 * them, and the events page lists every event type.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readMarkdown, sectionOf, tableNames } from './markdown.mjs';

const OPTIONS_PAGE = 'docs/guide/reference/options.md';
const ERRORS_PAGE = 'docs/guide/reference/errors.md';
const EVENTS_PAGE = 'docs/guide/reference/events.md';

/** Each options type and the package that exports it; its table sits under `## \`Type\``. */
export const OPTIONS_TYPES = [
  ['ToolShieldModuleOptions', 'nest'],
  ['ToolPolicyDefaults', 'nest'],
  ['ToolOptions', 'nest'],
  ['RetryOptions', 'core'],
  ['BackoffOptions', 'core'],
  ['RetryBudgetOptions', 'core'],
  ['ToolBreakerOptions', 'nest'],
  ['ToolBulkheadOptions', 'nest'],
  ['ToolRateLimitOptions', 'nest'],
  ['AdaptiveRateOptions', 'core'],
  ['HedgingOptions', 'core'],
  ['ToolFallbackOptions', 'nest'],
  ['ExecuteOptions', 'nest'],
  ['ToolCacheSettings', 'nest'],
  ['ToolApprovalsOptions', 'nest'],
  ['ReadMoreToolOptions', 'nest'],
  ['ToolShieldAgentOptions', 'nest'],
  ['ToolShieldAgentRunnerOptions', 'nest'],
];

/** The source of a file that gives the checker both packages' exports. */
export const REFERENCE_PROBE = `import type * as core from '@toolshield/core';
import type * as nest from '@toolshield/nest';
export type { core, nest };
`;

/** Problems with the options tables and the events page, read through `program`'s checker. */
export function typeReferenceProblems(root, ts, program, probeFile) {
  const checker = program.getTypeChecker();
  const probe = program.getSourceFile(probeFile);
  const modules = {};
  for (const statement of probe.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const name = statement.moduleSpecifier.text.replace('@toolshield/', '');
    modules[name] = checker.getSymbolAtLocation(statement.moduleSpecifier);
  }
  const exported = (pkg, name) => {
    const symbol = checker.getExportsOfModule(modules[pkg]).find((one) => one.name === name);
    if (symbol === undefined) return undefined;
    return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };
  const options = readMarkdown(root, join(root, OPTIONS_PAGE));
  const problems = OPTIONS_TYPES.flatMap(([typeName, pkg]) => {
    const symbol = exported(pkg, typeName);
    if (symbol === undefined)
      return [
        `@toolshield/${pkg} no longer exports ${typeName}: update tools/scripts/docs-check/reference-pages.mjs`,
      ];
    const properties = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
      .map((property) => property.name);
    return tableProblems(
      options,
      `## \`${typeName}\``,
      properties,
      `an option of ${typeName} (@toolshield/${pkg})`,
    );
  });
  const eventNames = eventTypes(
    ts,
    checker,
    exported('core', 'ToolEvent') ?? exported('nest', 'ToolEvent'),
  );
  if (eventNames === undefined) {
    return [
      ...problems,
      '@toolshield/core no longer exports ToolEvent as a union of events with a literal `type`: update tools/scripts/docs-check/reference-pages.mjs',
    ];
  }
  const events = readMarkdown(root, join(root, EVENTS_PAGE));
  return [
    ...problems,
    ...tableProblems(
      events,
      '## Events',
      eventNames,
      'an event type of ToolEvent (@toolshield/core)',
    ),
  ];
}

/** The literal `type` of each member of the `ToolEvent` union, or undefined. */
function eventTypes(ts, checker, symbol) {
  if (symbol === undefined) return undefined;
  const union = checker.getDeclaredTypeOfSymbol(symbol);
  if (!union.isUnion()) return undefined;
  return union.types.map((member) => {
    const type = checker.getTypeOfSymbol(member.getProperty('type'));
    return type.isStringLiteral() ? type.value : undefined;
  });
}

function tableProblems(doc, heading, names, what) {
  const section = sectionOf(doc.text, heading);
  if (section === undefined) return [`${doc.name} has no section "${heading}" (for ${what})`];
  const listed = tableNames(section);
  return [
    ...names
      .filter((name) => !listed.includes(name))
      .map((name) => `${doc.name}, "${heading}": \`${name}\` is missing from the table (${what})`),
    ...listed
      .filter((name) => !names.includes(name))
      .map((name) => `${doc.name}, "${heading}": lists \`${name}\`, which is not ${what}`),
  ];
}

/**
 * Problems with the error table: one row per error type of the built `@toolshield/core`,
 * whose retried / recoverable / counts-for-the-breaker cells say yes or no as its traits do.
 */
export async function errorTableProblems(root) {
  const TOOL_ERROR_TYPE_TRAITS = await errorTraits(root);
  const doc = readMarkdown(root, join(root, ERRORS_PAGE));
  const heading = '## Error types';
  const section = sectionOf(doc.text, heading);
  if (section === undefined) return [`${doc.name} has no section "${heading}"`];
  const rows = new Map(
    section
      .split('\n')
      .map((line) => line.match(/^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/))
      .filter(Boolean)
      .map(([, type, cells]) => [type, cells.split('|').map((cell) => cell.trim())]),
  );
  const problems = [];
  for (const [type, traits] of Object.entries(TOOL_ERROR_TYPE_TRAITS)) {
    const cells = rows.get(type);
    if (cells === undefined) {
      problems.push(`${doc.name}: the error type \`${type}\` is missing from "${heading}"`);
      continue;
    }
    const said = (cell) => cell?.match(/^(yes|no)\b/)?.[1] === 'yes';
    for (const [column, trait] of [
      [0, 'retryable'],
      [1, 'recoverable'],
      [2, 'breakerFailure'],
    ]) {
      if (said(cells[column]) !== traits[trait]) {
        problems.push(
          `${doc.name}: \`${type}\` says "${cells[column]}" in column ${column + 2}, but its ${trait} is ${traits[trait]}`,
        );
      }
    }
  }
  for (const type of rows.keys()) {
    if (!(type in TOOL_ERROR_TYPE_TRAITS))
      problems.push(`${doc.name}: \`${type}\` is not an error type`);
  }
  return problems;
}

/**
 * Core's `TOOL_ERROR_TYPE_TRAITS`: from a public entry point when one exports it, else from
 * the built module that defines it (the traits are not public API).
 */
async function errorTraits(root) {
  for (const entry of ['@toolshield/core', '@toolshield/core/internal']) {
    const traits = (await import(entry).catch(() => ({}))).TOOL_ERROR_TYPE_TRAITS;
    if (traits !== undefined) return traits;
  }
  const built = join(root, 'packages', 'core', 'dist', 'errors', 'tool-error-type.js');
  return (await import(pathToFileURL(built).href)).TOOL_ERROR_TYPE_TRAITS;
}
