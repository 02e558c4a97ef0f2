export * from './shield-options.js';
export * from './shield-tool.js';
export * from './tool-catalog.js';
/** What the model reads for an outcome, for adapters whose frameworks carry tool results as text. */
export { outcomeContent } from '../rendering/outcome-content.js';
