export * from './cache-key.js';
export * from './single-flight.js';
export * from './stale-answer.js';
export * from './tool-cache-store.js';
export * from './in-memory-tool-cache-store.js';
export * from './tool-result-cache.js';
