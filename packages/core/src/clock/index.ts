export * from './clock.js';
export * from './clock.rule.js';
export * from './system-clock.js';
export * from './virtual-clock.js';
export * from './virtual-clock-options.rule.js';
export * from './sleep.js';
export * from './abort-signal-like.js';
export * from './abort-source.js';
