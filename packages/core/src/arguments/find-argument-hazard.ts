import type { ValidationIssue } from '../errors/tool-error.js';

/** Keys that can reach an object's prototype when arguments are merged or assigned. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

interface PendingNode {
  readonly value: object;
  readonly depth: number;
  readonly path: string;
}

/**
 * Walks parsed arguments (iteratively, depth first) and returns the first hazard: a
 * prototype-reaching key at any depth, or nesting deeper than `maxDepth` (the root object is
 * depth 1). A cyclic object reports as too deep. Returns `undefined` when the arguments are safe.
 */
export function findArgumentHazard(root: object, maxDepth: number): ValidationIssue | undefined {
  const pending: PendingNode[] = [{ value: root, depth: 1, path: '' }];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.depth > maxDepth) {
      return {
        path: node.path,
        message: `nested deeper than ${maxDepth} levels`,
        constraint: 'maxDepth',
      };
    }
    for (const key of Object.keys(node.value)) {
      const path = node.path === '' ? key : `${node.path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) {
        return { path, message: `the key '${key}' is not allowed`, constraint: 'forbiddenKey' };
      }
      const child: unknown = (node.value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        pending.push({ value: child, depth: node.depth + 1, path });
      }
    }
  }
  return undefined;
}
