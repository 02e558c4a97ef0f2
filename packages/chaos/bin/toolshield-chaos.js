#!/usr/bin/env node
/**
 * The `toolshield-chaos` command: a launcher kept outside `dist` so that package managers can
 * link it before the package is built (inside the toolshield workspace, `npm ci` links the
 * workspace's bins while `dist` does not exist yet). It runs the compiled CLI.
 */
try {
  await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli/main.js')) {
    throw error;
  }
  console.error(
    'chaos: @toolshield/chaos is not built (dist/cli/main.js is missing); in the toolshield repo run `npx nx build @toolshield/chaos`',
  );
  process.exitCode = 2;
}
