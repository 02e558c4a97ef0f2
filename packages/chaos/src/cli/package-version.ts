import { readFileSync } from 'node:fs';

/** The version of @toolshield/chaos, from its package.json (two folders up from src/cli or dist/cli). */
export function chaosPackageVersion(): string {
  const manifest = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
