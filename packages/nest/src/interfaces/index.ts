export * from './tool-options.interface.js';
export * from './tool-policy-defaults.interface.js';
export * from './toolshield-module-options.interface.js';
