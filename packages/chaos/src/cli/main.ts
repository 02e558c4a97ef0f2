#!/usr/bin/env node
import 'reflect-metadata';
import { runChaosCli } from './run-chaos-cli.js';

/**
 * The `toolshield-chaos` binary. The harness (which needs `@nestjs/testing`, an optional peer
 * dependency) is loaded only by a run, so help, version and usage errors work without it.
 */
process.exitCode = await runChaosCli(process.argv.slice(2));
