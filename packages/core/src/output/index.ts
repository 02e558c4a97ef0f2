export * from './cut-json.js';
export * from './describe-cut.js';
export * from './token-estimate.js';
export * from './output-budget.js';
export * from './output-handles.js';
export * from './read-output-page.js';
