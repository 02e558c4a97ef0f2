export * from './tool.decorator.js';
export * from './tool-params.decorator.js';
export * from './inject-toolshield-options.decorator.js';
export * from './retryable.decorator.js';
