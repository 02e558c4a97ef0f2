export * from './approval-record.js';
export * from './approval-store.js';
export * from './settle-approval.js';
export * from './in-memory-approval-store.js';
export * from './approval-not-pending.error.js';
export * from './approval-failure.js';
export * from './approval-policy.js';
