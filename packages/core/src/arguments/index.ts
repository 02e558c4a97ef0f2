export * from './json-syntax-error.js';
export * from './parse-tool-arguments.js';
export * from './max-argument-bytes.rule.js';
export * from './suggest-tool-names.js';
export * from './cap-tool-name.js';
