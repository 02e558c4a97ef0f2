export * from './redaction-rule.js';
export * from './redactor.js';
export * from './failure-sanitizer.js';
export { isSecretKey } from './rules/secret-keys.js';
export { isStackFrameLine, stripStackFrames } from './stack-frames.js';
