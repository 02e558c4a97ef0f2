export * from './tool-event.js';
