export * from './tool-call.js';
export * from './tool-outcome.js';
