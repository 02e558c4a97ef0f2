/**
 * The optional nestjs-resilience row. nestjs-resilience (npm, latest 2.1.3) declares peer
 * dependencies on Nest 8–10 and reflect-metadata 0.1, so it cannot be added to this Nest 12
 * workspace without --legacy-peer-deps. It is therefore loaded, if present, from a scratch
 * install outside the repo (see nestjs-resilience-scratch.sh) whose @nestjs, rxjs and
 * reflect-metadata are symlinks to this workspace's copies, so it runs on our Nest 12.
 * Nothing of nestjs-resilience is committed here.
 */
import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lookupBody, type LookupArgs } from './fixtures.js';

type Strategy = unknown;
type MethodDecoratorFn = (target: object, key: string, descriptor: PropertyDescriptor) => unknown;

interface NestjsResilience {
  ResilienceModule: { forRoot(options: object): Type };
  UseResilience: (...strategies: Strategy[]) => MethodDecoratorFn;
  ResilienceFactory: {
    createRetryStrategy(options: object): Strategy;
    createCircuitBreakerStrategy(options: object): Strategy;
    createTimeoutStrategy(ms: number): Strategy;
  };
}

export const NESTJS_RESILIENCE_DIR =
  process.env.NESTJS_RESILIENCE_DIR ?? join(tmpdir(), 'toolshield-bench-nestjs-resilience');

export interface ResilienceRow {
  readonly once: () => Promise<unknown>;
  readonly version: string;
  close(): Promise<void>;
}

/** Builds the row, or explains why it cannot. */
export async function loadNestjsResilience(): Promise<ResilienceRow | { skipped: string }> {
  const root = join(NESTJS_RESILIENCE_DIR, 'node_modules', 'nestjs-resilience');
  const entry = join(root, 'dist', 'index.js');
  if (!existsSync(entry)) {
    return {
      skipped: `not installed at ${NESTJS_RESILIENCE_DIR} (run sh tools/bench/nestjs-resilience-scratch.sh)`,
    };
  }
  try {
    const imported = (await import(pathToFileURL(entry).href)) as NestjsResilience & {
      default?: NestjsResilience;
    };
    const nr = imported.default ?? imported;
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };

    class ResilientTools {
      async lookup(args: LookupArgs) {
        return lookupBody(args);
      }
    }
    const descriptor: PropertyDescriptor = {
      value: ResilientTools.prototype.lookup,
      writable: true,
      configurable: true,
    };
    nr.UseResilience(
      nr.ResilienceFactory.createRetryStrategy({ maxRetries: 3 }),
      nr.ResilienceFactory.createCircuitBreakerStrategy({}),
      nr.ResilienceFactory.createTimeoutStrategy(30_000),
    )(ResilientTools.prototype, 'lookup', descriptor);
    Object.defineProperty(ResilientTools.prototype, 'lookup', descriptor);
    Injectable()(ResilientTools);
    class ResilienceBenchModule {}
    Module({ imports: [nr.ResilienceModule.forRoot({})], providers: [ResilientTools] })(
      ResilienceBenchModule,
    );
    const app = await NestFactory.createApplicationContext(ResilienceBenchModule, {
      logger: false,
    });
    await app.init();
    const tools = app.get(ResilientTools);
    const args: LookupArgs = { city: 'Paris' };
    await tools.lookup(args);
    return { once: () => tools.lookup(args), version, close: () => app.close() };
  } catch (error) {
    return { skipped: `failed to run on this Nest: ${String(error)}` };
  }
}
