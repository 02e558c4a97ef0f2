import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { MCP_PACKAGE_VERSION } from './package-version.js';

describe('MCP_PACKAGE_VERSION', () => {
  it('is the version in the package manifest, so server and client info follow each release', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(MCP_PACKAGE_VERSION).toBe(manifest.version);
  });
});
