export * from './hedging-options.js';
export * from './hedging-options.rule.js';
export * from './hedger.js';
