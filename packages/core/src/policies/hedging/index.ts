export * from './hedging-options.js';
export * from './hedger.js';
