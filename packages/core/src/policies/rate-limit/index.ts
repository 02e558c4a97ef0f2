export * from './rate-limit-options.js';
export * from './rate-limit-options.rule.js';
export * from './rate-limiter.js';
export * from './rate-controller.js';
export * from './default-rate-controller.js';
export * from './upstream-rate-signals.js';
export * from './upstream-refusal.js';
export * from './rate-limit-store.js';
