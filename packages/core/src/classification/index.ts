export * from './classify-error.js';
export * from './create-tool-error.js';
export * from './describe-thrown.js';
export * from './http-status.js';
export * from './retry-after.js';
export * from './system-error-codes.js';
export * from './validation-errors.js';
