#!/usr/bin/env node
import 'reflect-metadata';

/**
 * The `toolshield-chaos` binary. The harness compiles the app as a Nest testing module, so it
 * needs `@nestjs/testing` (an optional peer dependency): without it, say so on one line and
 * exit 2 instead of dying with a module-resolution stack.
 */
try {
  const { runChaosCli } = await import('./run-chaos-cli.js');
  process.exitCode = await runChaosCli(process.argv.slice(2));
} catch (error) {
  if (!String((error as Error | undefined)?.message).includes("'@nestjs/testing'")) throw error;
  console.error(
    'chaos: the harness needs @nestjs/testing; install it next to @nestjs/core (npm install -D @nestjs/testing@^12)',
  );
  process.exitCode = 2;
}
