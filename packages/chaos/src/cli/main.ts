#!/usr/bin/env node
import 'reflect-metadata';
import { runChaosCli } from './run-chaos-cli.js';

process.exitCode = await runChaosCli(process.argv.slice(2));
