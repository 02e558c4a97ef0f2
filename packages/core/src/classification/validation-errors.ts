import type { ValidationIssue } from '../errors/tool-error.js';
import { readProperty, readString } from './read-property.js';

const MAX_ISSUES = 50;
const MAX_NESTING = 32;
/**
 * A leading field path in a flattened class-validator message (`address.zip must be ...`,
 * `items.2.id should ...`), or the whitelist's `property foo should not exist`.
 */
const LEADING_PATHS: readonly RegExp[] = [
  /^property\s+(\S+)\s+(should not exist)$/s,
  /^([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s+((?:must|should|has|have|is|are)\b.*)$/s,
];

/**
 * Field-level issues from a validation report, whichever library produced it:
 *
 * - class-validator `ValidationError`s (one or an array; `property`, `constraints`,
 *   `children`), flattened to dotted paths such as `address.zip` and `items.2.id`;
 * - Zod-style errors (`name: 'ZodError'`, `issues: [{ path, message, code }]`).
 *
 * Returns `undefined` when `value` is neither.
 *
 * @publicApi
 */
export function readValidationIssues(value: unknown): ValidationIssue[] | undefined {
  const candidates = Array.isArray(value) ? value : [value];
  if (candidates.length > 0 && candidates.every(isClassValidatorError)) {
    const issues: ValidationIssue[] = [];
    flattenClassValidatorErrors(candidates, '', 0, issues);
    return issues;
  }
  return readSchemaIssues(value);
}

/**
 * Issues from flattened validation messages, as Nest's `ValidationPipe` puts them in a
 * `BadRequestException` (`['address.zip must be a postal code', ...]`): the leading path
 * becomes the issue's path.
 *
 * @publicApi
 */
export function issuesFromMessages(messages: readonly string[]): ValidationIssue[] {
  return messages.slice(0, MAX_ISSUES).map((text) => {
    const match = LEADING_PATHS.map((pattern) => pattern.exec(text)).find(Boolean);
    return match?.[1] !== undefined && match[2] !== undefined
      ? { path: match[1], message: match[2] }
      : { path: '', message: text };
  });
}

function isClassValidatorError(value: unknown): boolean {
  if (typeof readProperty(value, 'property') !== 'string') return false;
  const constraints = readProperty(value, 'constraints');
  return (
    (typeof constraints === 'object' && constraints !== null) ||
    Array.isArray(readProperty(value, 'children'))
  );
}

function flattenClassValidatorErrors(
  errors: readonly unknown[],
  parentPath: string,
  nesting: number,
  issues: ValidationIssue[],
): void {
  for (const error of errors) {
    if (issues.length >= MAX_ISSUES) return;
    const property = String(readProperty(error, 'property'));
    const path = parentPath === '' ? property : `${parentPath}.${property}`;
    const constraints = readProperty(error, 'constraints');
    const children = readProperty(error, 'children');
    const hasChildren = Array.isArray(children) && children.length > 0 && nesting < MAX_NESTING;
    if (typeof constraints === 'object' && constraints !== null) {
      for (const [constraint, message] of Object.entries(constraints)) {
        issues.push({
          path,
          message: withoutLeadingProperty(String(message), property),
          constraint,
        });
      }
    } else if (!hasChildren) {
      issues.push({ path, message: 'is invalid' });
    }
    if (hasChildren) flattenClassValidatorErrors(children, path, nesting + 1, issues);
  }
}

/**
 * class-validator messages repeat the property (`zip must be a postal code`, the whitelist's
 * `property zip should not exist`); the path already says it.
 */
function withoutLeadingProperty(message: string, property: string): string {
  const lead = [`${property} `, `property ${property} `].find((start) => message.startsWith(start));
  return lead === undefined ? message : message.slice(lead.length);
}

function readSchemaIssues(value: unknown): ValidationIssue[] | undefined {
  const issues = readProperty(value, 'issues');
  if (readString(value, 'name') !== 'ZodError' || !Array.isArray(issues)) return undefined;
  return issues.slice(0, MAX_ISSUES).map((issue: unknown) => {
    const path = readProperty(issue, 'path');
    const constraint = readString(issue, 'code');
    return {
      path: Array.isArray(path) ? path.map(String).join('.') : '',
      message: readString(issue, 'message') ?? 'is invalid',
      ...(constraint === undefined ? {} : { constraint }),
    };
  });
}
