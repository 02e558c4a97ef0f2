import { createJestConfig } from '../../jest.preset.js';

export default createJestConfig(import.meta.dirname);
