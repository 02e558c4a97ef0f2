export * from './retry-budget-options.js';
export * from './retry-budget-options.rule.js';
export * from './retry-budget-store.js';
export * from './retry-budget.js';
