/**
 * @toolshield/core: the framework-free parts of toolshield.
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
export * from './approvals/index.js';
export * from './output/index.js';
export * from './cache/index.js';
