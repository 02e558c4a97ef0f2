export * from './option-rule.js';
export * from './option-rules.js';
export * from './invalid-options.error.js';
export * from './assert-options.js';
