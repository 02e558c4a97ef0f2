/**
 * @toolshield/adapter-testing: fixtures shared by the framework adapters' specs (private).
 *
 * @packageDocumentation
 */
export * from './travel-app.js';
export * from './payment-app.js';
