export * from './clock.js';
export * from './system-clock.js';
export * from './virtual-clock.js';
export * from './sleep.js';
export * from './abort-signal-like.js';
export * from './abort-source.js';
