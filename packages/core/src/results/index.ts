export * from './tool-call.js';
export * from './tool-outcome.js';
export * from './tool-outcome-context.js';
export * from './create-tool-result.js';
export * from './create-tool-failure.js';
export * from './failure-suggestions.js';
export * from './side-effects.js';
export * from './assert-serializable-output.js';
