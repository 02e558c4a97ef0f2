/**
 * Everything @toolshield/core holds, for toolshield's own packages (`@toolshield/core/internal`).
 * Not a supported API: it has no API report, and it changes in any release. Apps import the
 * package's root, `@toolshield/core/agent` and `@toolshield/core/testing`.
 *
 * @packageDocumentation
 */
export * from './errors/index.js';
export * from './results/index.js';
export * from './redaction/index.js';
export * from './clock/index.js';
export * from './events/index.js';
export * from './arguments/index.js';
export * from './classification/index.js';
export * from './rendering/index.js';
export * from './policies/index.js';
export * from './shield/index.js';
export * from './agent/index.js';
export * from './options/index.js';
export * from './output/index.js';
export * from './cache/index.js';
export * from './approvals/index.js';
/** Two helpers of that name: the guards' is the one shared. */
export { canonicalJson } from './agent/index.js';
