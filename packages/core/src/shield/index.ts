export * from './shield-options.js';
export * from './shield-tool.js';
