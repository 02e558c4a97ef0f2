import { createJestConfig } from '../../jest.preset.js';

/**
 * The specs talk to real MCP servers over sockets and child processes: their waits are
 * bounded, but a loaded machine needs more than Jest's default 5 s per test.
 */
export default { ...createJestConfig(import.meta.dirname), testTimeout: 30_000 };
