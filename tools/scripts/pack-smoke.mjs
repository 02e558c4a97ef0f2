#!/usr/bin/env node
/**
 * Pack smoke test (CI, after `npx nx run-many -t build`): packs every published package with
 * `npm pack`, installs @toolshield/core, nest, chaos and redis (with ioredis) into a plain Nest
 * 12 app created in a temp dir outside the workspace (everything else comes from the npm
 * registry, and @nestjs/testing is deliberately absent), then checks what a user gets:
 *
 * - each published package ships LICENSE and README.md, no spec files, and no citation of
 *   DESIGN.md (the ones not installed are checked unpacked from their tarballs);
 * - every source map (`.js.map`, `.d.ts.map`) points at sources that are in the package: we
 *   ship `src` (without specs) so stack traces under --enable-source-maps and "go to
 *   definition" through declaration maps land on the real TypeScript;
 * - the root README's "A tool in thirty seconds" example, read from README.md now (so the
 *   test follows the README), compiles with tsc (skipLibCheck off, so our .d.ts files are
 *   checked too) and runs: a tool with a DTO, ToolExecutor.execute, toOpenAIToolMessage;
 * - `@toolshield/chaos` imports and injects faults with no @nestjs/testing installed, and
 *   its CLI says in one line that the harness needs it;
 * - `@toolshield/redis`, set up as its README shows (`ToolShieldRedisModule` inside
 *   `ToolShieldModule.forRootAsync`), shares a breaker between two app instances in one
 *   process on a real `redis-server` started here (127.0.0.1, a free port, stopped after):
 *   one opens it, the other follows and fails the tool's call fast.
 *
 * Usage: node tools/scripts/pack-smoke.mjs [--keep]   (--keep leaves the temp dir for a look)
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Installed into the app and run. */
const packages = ['core', 'nest', 'chaos', 'redis'];
/** Every package that is published (not `private`): packed and its contents checked. */
const published = readdirSync(join(root, 'packages')).filter((name) => {
  const manifest = join(root, 'packages', name, 'package.json');
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).private !== true;
});
const keep = process.argv.includes('--keep');
const started = Date.now();

const fail = (message) => {
  console.error(`pack-smoke: FAIL ${message}`);
  process.exit(1);
};
const step = (message) =>
  console.log(`pack-smoke: ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const run = (command, args, cwd, options = {}) =>
  execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });

for (const name of published) {
  if (!existsSync(join(root, 'packages', name, 'dist', 'index.js'))) {
    fail(`packages/${name}/dist is missing: run \`npx nx run-many -t build\` first`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'toolshield-pack-smoke-'));
if (!relative(root, work).startsWith('..')) fail(`${work} is inside the workspace`);
try {
  // 1. npm pack each published package.
  const tarballs = published.map((name) => {
    const [packed] = JSON.parse(
      run('npm', ['pack', '--json', '--pack-destination', work], join(root, 'packages', name)),
    );
    const files = packed.files.map((file) => file.path);
    for (const required of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'src/index.ts',
    ]) {
      if (!files.includes(required)) fail(`${packed.name} does not ship ${required}`);
    }
    const specs = files.filter((file) => /\.(spec|test)\.ts$|tsbuildinfo$/.test(file));
    if (specs.length > 0) fail(`${packed.name} ships ${specs.join(', ')}`);
    step(
      `packed ${packed.filename} (${files.length} files, ${Math.round(packed.size / 1024)} KiB)`,
    );
    return join(work, packed.filename);
  });

  // 2. A plain Nest 12 app outside the workspace: registry packages plus the tarballs.
  const app = join(work, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify(
      {
        name: 'pack-smoke-app',
        private: true,
        type: 'module',
        dependencies: {
          '@nestjs/common': '^12.0.0',
          '@nestjs/core': '^12.0.0',
          'class-transformer': '^0.5.1',
          'class-validator': '^0.15.1',
          ioredis: '^6.0.0',
          'reflect-metadata': '^0.2.2',
          rxjs: '^7.8.2',
          ...Object.fromEntries(
            packages.map((name) => [
              `@toolshield/${name}`,
              `file:${tarballs[published.indexOf(name)]}`,
            ]),
          ),
        },
        devDependencies: { typescript: '~6.0.3', '@types/node': '^24.0.0' },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023', 'dom'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          skipLibCheck: false,
          types: ['node'],
          outDir: 'dist',
          rootDir: 'src',
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  step('installed the tarballs and Nest 12 from the registry');
  if (existsSync(join(app, 'node_modules/@nestjs/testing'))) {
    fail('@nestjs/testing got installed: the no-test-package checks would prove nothing');
  }

  // 3. What the installed packages contain.
  for (const name of packages) checkInstalledPackage(join(app, 'node_modules/@toolshield', name));
  for (const name of published.filter((one) => !packages.includes(one))) {
    const unpacked = join(work, 'unpacked', name);
    mkdirSync(unpacked, { recursive: true });
    run('tar', ['-xzf', tarballs[published.indexOf(name)], '-C', unpacked], work);
    checkInstalledPackage(join(unpacked, 'package'));
  }
  step(
    `LICENSE, README, no DESIGN.md citation, every source map resolves (${published.join(', ')})`,
  );

  // 4. The root README's example, compiled with tsc and run.
  writeFileSync(join(app, 'src/readme-example.ts'), readmeExampleProgram());
  writeFileSync(join(app, 'src/chaos-runtime.ts'), chaosRuntimeProgram());
  writeFileSync(join(app, 'src/redis-shared-breaker.ts'), redisSharedBreakerProgram());
  try {
    run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app);
  } catch (error) {
    fail(`tsc failed in the packed app:\n${error.stdout}${error.stderr}`);
  }
  step(
    'tsc compiled the README example, a chaos import and a Redis setup against the packed packages',
  );
  const example = JSON.parse(run('node', ['dist/readme-example.js'], app));
  const [message] = example.messages;
  if (example.outcome.success !== true || example.outcome.output?.tempC !== 21) {
    fail(`the README example did not succeed: ${JSON.stringify(example.outcome)}`);
  }
  if (
    message?.role !== 'tool' ||
    message.tool_call_id !== 'call_1' ||
    !String(message.content).includes('21')
  ) {
    fail(`toOpenAIToolMessage gave ${JSON.stringify(message)}`);
  }
  if (example.failure.success !== false || typeof example.failure.errorType !== 'string') {
    fail(`a failing upstream did not end in a ToolFailure: ${JSON.stringify(example.failure)}`);
  }
  step(`the README example ran: a result, then a ${example.failure.errorType} ToolFailure`);

  // 5. Runtime chaos without @nestjs/testing; the CLI names what it needs.
  const chaos = run('node', ['dist/chaos-runtime.js'], app).trim();
  if (chaos !== 'chaos injected: true') fail(`chaos at run time printed ${chaos}`);
  let cli;
  try {
    run(join(app, 'node_modules/.bin/toolshield-chaos'), ['--help'], app);
    fail('toolshield-chaos --help succeeded without @nestjs/testing');
  } catch (error) {
    cli = error;
  }
  if (
    cli.status !== 2 ||
    !/needs @nestjs\/testing/.test(cli.stderr) ||
    /\n\s+at /.test(cli.stderr)
  ) {
    fail(`toolshield-chaos without @nestjs/testing: exit ${cli.status}, ${cli.stderr}`);
  }
  step('@toolshield/chaos injects faults with no @nestjs/testing; its CLI asks for it in one line');

  // 6. @toolshield/redis on a real redis-server: two instances share one breaker.
  const redis = await startRedisServer(work);
  let shared;
  let failed;
  try {
    shared = JSON.parse(
      run('node', ['dist/redis-shared-breaker.js'], app, {
        env: { ...process.env, REDIS_URL: redis.url },
        timeout: 20_000,
      }),
    );
  } catch (error) {
    failed = `the Redis setup failed: ${error.stdout ?? ''}${error.stderr ?? error.message}`;
  } finally {
    redis.stop();
  }
  if (failed !== undefined) fail(failed);
  if (
    shared.health.join() !== 'shared,shared' ||
    shared.followed !== 'open' ||
    shared.outcome.success !== false ||
    shared.outcome.errorType !== 'circuit_open'
  ) {
    fail(`@toolshield/redis did not share the breaker: ${JSON.stringify(shared)}`);
  }
  step(
    `@toolshield/redis: a breaker opened by one instance was open in the other after ${shared.followedMs} ms, its call failed fast`,
  );
  console.log(`pack-smoke: PASS in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  if (keep) console.log(`pack-smoke: left ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** LICENSE and README present, no DESIGN.md citation, every source map's sources shipped. */
function checkInstalledPackage(dir) {
  for (const file of ['LICENSE', 'README.md']) {
    if (!existsSync(join(dir, file))) fail(`${dir} has no ${file}`);
  }
  for (const file of walk(dir)) {
    const text = readFileSync(file, 'utf8');
    if (text.includes('DESIGN.md')) fail(`${relative(dir, file)} cites DESIGN.md`);
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(text);
    for (const source of map.sources) {
      const target = resolve(dirname(file), map.sourceRoot ?? '', source);
      if (!existsSync(target))
        fail(`${relative(dir, file)} points at ${source}, which is not shipped`);
    }
  }
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * The README's first `ts` block under "A tool in thirty seconds", split at its
 * `// later, ...` line: the declarations above it, then a Nest application context, a fetch
 * that answers like the weather upstream, and the lines below it; then the same call against
 * a failing upstream.
 */
function readmeExampleProgram() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## A tool in thirty seconds$/m)[1];
  const block = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (block === undefined) fail('README.md has no ```ts block under "## A tool in thirty seconds"');
  const [declarations, usage] = block.split(/^\/\/ later.*$/m);
  if (usage === undefined || !usage.includes('const outcome')) {
    fail(
      'the README example changed shape: expected "// later ..." followed by `const outcome = ...`; update tools/scripts/pack-smoke.mjs',
    );
  }
  return `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
${declarations}
const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
const messages: unknown[] = [];
globalThis.fetch = async () =>
  new Response(JSON.stringify({ city: 'Paris', tempC: 21 }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
${usage}
globalThis.fetch = async () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
};
const failure = await app.get(ToolExecutor).execute({ id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' });
console.log(JSON.stringify({ outcome, messages, failure }));
await app.close();
`;
}

/** A throwaway redis-server on 127.0.0.1 (a free port, no persistence), for step 6. */
async function startRedisServer(work) {
  const port = await new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolvePort(free));
    });
  });
  const dir = join(work, 'redis');
  mkdirSync(dir);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => child.kill('SIGKILL');
  await new Promise((ready, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start in 5 s')), 5_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`redis-server could not start (.ci/redis.sh installs it): ${error.message}`),
      );
    });
    child.stdout.on('data', (chunk) => {
      if (!String(chunk).includes('Ready to accept connections')) return;
      clearTimeout(timer);
      ready();
    });
  }).catch((error) => {
    stop();
    fail(error.message);
  });
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/**
 * The redis README's module setup in two app instances of one process: the first opens the
 * tool's breaker, the second must follow (pub/sub) and fail the tool's next call fast.
 */
function redisSharedBreakerProgram() {
  return `import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool, ToolCircuitBreakers, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { RedisBreakerStore, RedisRateLimitStore, ToolShieldRedisModule } from '@toolshield/redis';

@Injectable()
class WeatherTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.' })
  getWeather(): Promise<string> {
    return Promise.resolve('sunny');
  }
}

@Module({
  imports: [
    ToolShieldModule.forRootAsync({
      imports: [
        ToolShieldRedisModule.forRoot({ connection: process.env.REDIS_URL!, keyPrefix: 'pack-smoke:' }),
      ],
      inject: [RedisBreakerStore, RedisRateLimitStore],
      useFactory: (breakerStore: RedisBreakerStore, rateLimitStore: RedisRateLimitStore) => ({
        breakerStore,
        rateLimitStore,
      }),
    }),
  ],
  providers: [WeatherTools],
})
class AppModule {}

const call = { id: 'call_1', name: 'get_weather', arguments: {} };
const instances = await Promise.all([1, 2].map(() => NestFactory.createApplicationContext(AppModule, { logger: false })));
const [first, second] = instances;
for (const app of instances) await app.get(ToolExecutor).execute(call);
const until = async (check: () => boolean) => {
  const start = Date.now();
  while (!check() && Date.now() - start < 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
  return Date.now() - start;
};
await until(() => instances.every((app) => app.get(RedisBreakerStore).health().status === 'shared'));
const health = instances.map((app) => app.get(RedisBreakerStore).health().status);
await first.get(ToolCircuitBreakers).open('get_weather');
const followedMs = await until(() => second.get(ToolCircuitBreakers).find('get_weather')?.state === 'open');
const followed = second.get(ToolCircuitBreakers).find('get_weather')?.state;
const outcome = await second.get(ToolExecutor).execute({ ...call, id: 'call_2' });
console.log(JSON.stringify({ health, followed, followedMs, outcome }));
await Promise.all(instances.map((app) => app.close()));
`;
}

/** Runtime fault injection from the main entry, which must load without @nestjs/testing. */
function chaosRuntimeProgram() {
  return `import { isChaosInjected, networkError, withChaos, ChaosModule } from '@toolshield/chaos';

void ChaosModule;
const lookup = withChaos(async (args: { sku: string }) => args.sku, [{ fault: networkError('ECONNRESET') }], {
  enabled: true,
  seed: 1,
});
try {
  await lookup({ sku: 'A' });
  console.log('chaos injected: false');
} catch (error) {
  console.log(\`chaos injected: \${isChaosInjected(error)}\`);
}
`;
}
