#!/usr/bin/env node
/**
 * Registry smoke test (CI, after `npx nx run-many -t build`): what a user does, against a real
 * registry. It starts a throwaway Verdaccio on 127.0.0.1 (registry-smoke/verdaccio.mjs),
 * publishes every public package to it with the release tool (`nx release publish
 * --registry`), then in a plain Nest 12 app created in a temp dir outside the workspace
 * installs @toolshield/core, nest, mcp, redis, ai-sdk, openai-agents, langchain and mastra BY NAME AND
 * VERSION from that registry, then @toolshield/chaos by name alone in a second `npm install`
 * (the `@toolshield` scope routed to it in the app's .npmrc, as docs/releasing.md shows and a
 * user of a private registry does; other packages from the npm registry and its cache,
 * or through Verdaccio's proxy with --all-through-registry, which is slower; @nestjs/testing
 * is deliberately absent at first), and checks:
 *
 * - each package as installed: files, source maps, no test-only imports (package-checks.mjs);
 * - the root README's example and each package README's first example compile with tsc
 *   (skipLibCheck off, so our .d.ts files are checked too) and run (readme-programs.mjs);
 * - `@toolshield/chaos` injects faults with no @nestjs/testing installed, and its CLI answers
 *   `--help` and `--version` (exit 0) while a run says in one line that the harness needs it;
 * - `@toolshield/redis` shares a breaker between two app instances on a real `redis-server`
 *   started here (127.0.0.1, a free port, stopped after);
 * - with @nestjs/testing added, `npx toolshield-chaos run` of one scenario of the chaos
 *   README's config, chosen by name.
 *
 * Usage: node tools/scripts/registry-smoke.mjs [--keep] [--all-through-registry]
 *   --keep leaves the temp dir for a look
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appCompilerOptions, appManifest, rangeOf } from './registry-smoke/app-manifest.mjs';
import { fixtureFiles } from './registry-smoke/fixtures.mjs';
import { chaosRuntimeProgram, redisSharedBreakerProgram } from './registry-smoke/own-programs.mjs';
import { checkInstalledPackage } from './registry-smoke/package-checks.mjs';
import { chaosConfigProgram, readmePrograms } from './registry-smoke/readme-programs.mjs';
import { startRedisServer } from './registry-smoke/redis-server.mjs';
import { fail, resultOf, run, runOrFail, seconds, step } from './registry-smoke/steps.mjs';
import { startVerdaccio } from './registry-smoke/verdaccio.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const manifestOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
/** Every package that is published (not `private`), by folder name. */
const published = readdirSync(join(root, 'packages')).filter((name) => {
  const dir = join(root, 'packages', name);
  return existsSync(join(dir, 'package.json')) && manifestOf(dir).private !== true;
});
/** Installed into the app by name and version. */
const installed = [
  'core',
  'nest',
  'chaos',
  'mcp',
  'redis',
  'ai-sdk',
  'openai-agents',
  'langchain',
  'mastra',
];
/** Installed by name alone in a second `npm install`, after the others. */
const installedLater = 'chaos';
const keep = process.argv.includes('--keep');
const allThroughRegistry = process.argv.includes('--all-through-registry');

for (const name of installed) {
  if (!published.includes(name)) fail(`packages/${name} is not a published package`);
}
for (const name of published) {
  if (!existsSync(join(root, 'packages', name, 'dist', 'index.js'))) {
    fail(`packages/${name}/dist is missing: run \`npx nx run-many -t build\` first`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'toolshield-registry-smoke-'));
if (!relative(root, work).startsWith('..')) fail(`${work} is inside the workspace`);
const registry = await startVerdaccio(root, join(work, 'registry'));
try {
  await smoke();
  console.log(`registry-smoke: PASS in ${seconds()} s`);
} finally {
  registry.stop();
  if (keep) console.log(`registry-smoke: left ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

async function smoke() {
  const env = registry.npmEnv;
  step(`Verdaccio on ${registry.url}`);

  // 1. Publish with the release tool, then ask the registry for each version.
  runOrFail(
    'nx release publish',
    'npx',
    [
      'nx',
      'release',
      'publish',
      `--registry=${registry.url}`,
      '--first-release',
      '--parallel=8',
      '--excludeTaskDependencies',
      '--output-style=static',
    ],
    root,
    { env: { ...env, NX_DAEMON: 'false', NX_TUI: 'false' } },
  );
  const versions = Object.fromEntries(
    published.map((name) => [name, manifestOf(join(root, 'packages', name)).version]),
  );
  const integrity = {};
  for (const name of published) {
    const spec = `@toolshield/${name}@${versions[name]}`;
    const answer = JSON.parse(
      runOrFail(
        `npm view ${spec}`,
        'npm',
        ['view', spec, 'version', 'dist.integrity', '--json'],
        work,
        { env },
      ),
    );
    if (answer.version !== versions[name])
      fail(`the registry has no ${spec}: ${JSON.stringify(answer)}`);
    integrity[name] = answer['dist.integrity'];
  }
  step(`published ${published.map((name) => `@toolshield/${name}@${versions[name]}`).join(', ')}`);

  // 2. A plain Nest 12 app outside the workspace, everything from the registry. As
  // docs/releasing.md says, the app's own .npmrc routes the @toolshield scope (a
  // --@toolshield:registry flag would hold for one command only), so a later
  // `npm install <name>` finds the registry too: chaos is installed by name in a second install.
  const app = join(work, 'app');
  mkdirSync(join(app, 'src/fakes'), { recursive: true });
  writeFileSync(join(app, '.npmrc'), `@toolshield:registry=${registry.url}\n`);
  const installedFirst = installed.filter((name) => name !== installedLater);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify(appManifest(root, versions, installedFirst), null, 2),
  );
  // The publisher's user config (token, scope) is not the app's: only its .npmrc routes the scope.
  const userconfig = join(work, 'user.npmrc');
  writeFileSync(userconfig, '');
  const appEnv = {
    ...process.env,
    npm_config_userconfig: userconfig,
    ...(allThroughRegistry ? { npm_config_registry: registry.url } : {}),
  };
  const install = (...args) =>
    runOrFail(
      `npm install ${args.join(' ')}`,
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args],
      app,
      { env: appEnv },
    );
  install();
  install(`@toolshield/${installedLater}`);
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
  for (const name of installed) {
    const entry = lock.packages[`node_modules/@toolshield/${name}`];
    if (entry?.version !== versions[name] || entry.integrity !== integrity[name]) {
      fail(
        `@toolshield/${name} did not come from the throwaway registry: ${JSON.stringify(entry)}`,
      );
    }
  }
  if (existsSync(join(app, 'node_modules/@nestjs/testing'))) {
    fail('@nestjs/testing got installed: the no-test-package checks would prove nothing');
  }
  step(
    `installed ${installedFirst.length} @toolshield packages by name and version, and Nest 12, then @toolshield/${installedLater} by name alone, from the registry the app's .npmrc names`,
  );

  // 3. What the installed packages contain.
  for (const name of installed) checkInstalledPackage(join(app, 'node_modules/@toolshield', name));
  step('LICENSE, README, no DESIGN.md citation, every source map resolves, no test-only import');

  // 4. The README examples and our own programs, compiled with tsc.
  const programs = readmePrograms(root);
  const chaosConfig = chaosConfigProgram(root);
  const sources = {
    ...fixtureFiles(root),
    ...Object.fromEntries(programs.map((program) => [`${program.file}.ts`, program.source])),
    'chaos-runtime.ts': chaosRuntimeProgram(),
    'redis-shared-breaker.ts': redisSharedBreakerProgram(),
  };
  for (const [file, source] of Object.entries(sources))
    writeFileSync(join(app, 'src', file), source);
  const compile = (name, files, options = {}) => {
    const config = `tsconfig.${name}.json`;
    const compilerOptions = { ...appCompilerOptions(), ...options };
    writeFileSync(join(app, config), JSON.stringify({ compilerOptions, files }, null, 2));
    runOrFail(`tsc -p ${config}`, join(app, 'node_modules/.bin/tsc'), ['-p', config], app);
  };
  const filesOf = (list) => list.map((program) => `src/${program.file}.ts`);
  compile('main', [
    ...filesOf(programs.filter((program) => !program.adapter)),
    'src/chaos-runtime.ts',
    'src/redis-shared-breaker.ts',
  ]);
  compile('adapters', filesOf(programs.filter((program) => program.adapter)), {
    skipLibCheck: true,
  });
  step(
    `tsc compiled ${programs.length} README examples, a chaos import and a two-instance Redis setup`,
  );

  // 5. Run them; the Redis ones against a throwaway redis-server.
  const redis = await startRedisServer(join(work, 'redis'));
  try {
    const programEnv = { ...process.env, REDIS_URL: redis.url, OPENAI_AGENTS_DISABLE_TRACING: '1' };
    for (const program of programs) {
      const stdout = runOrFail(program.name, 'node', [`dist/${program.file}.js`], app, {
        env: programEnv,
        timeout: 60_000,
      });
      const problem = program.check(resultOf(program.name, stdout));
      if (problem !== undefined) fail(`the example of ${program.name}: ${problem}`);
      step(`ran the example of ${program.name}`);
    }
    const shared = JSON.parse(
      runOrFail('the two-instance Redis setup', 'node', ['dist/redis-shared-breaker.js'], app, {
        env: programEnv,
        timeout: 20_000,
      }),
    );
    if (
      shared.health.join() !== 'shared,shared' ||
      shared.followed !== 'open' ||
      shared.outcome.success !== false ||
      shared.outcome.errorType !== 'circuit_open'
    ) {
      fail(`@toolshield/redis did not share the breaker: ${JSON.stringify(shared)}`);
    }
    step(
      `@toolshield/redis: a breaker opened by one instance was open in the other after ${shared.followedMs} ms`,
    );
  } finally {
    redis.stop();
  }

  // 6. Without @nestjs/testing: chaos at run time, the CLI's help and version; a run names
  // what it needs in one line (the config is compiled in step 7: its types need the package).
  const chaos = run('node', ['dist/chaos-runtime.js'], app).trim();
  if (chaos !== 'chaos injected: true') fail(`chaos at run time printed ${chaos}`);
  const cli = (...args) =>
    runOrFail(`npx toolshield-chaos ${args.join(' ')}`, 'npx', ['toolshield-chaos', ...args], app, {
      env: appEnv,
    });
  const help = cli('--help');
  if (!help.includes('toolshield-chaos run <config.js>'))
    fail(`toolshield-chaos --help printed ${help}`);
  const version = cli('--version').trim();
  if (version !== versions.chaos) fail(`toolshield-chaos --version printed ${version}`);
  let missing;
  try {
    run('npx', ['toolshield-chaos', 'run', 'dist/chaos.config.js'], app, { env: appEnv });
    fail('toolshield-chaos run succeeded without @nestjs/testing');
  } catch (error) {
    missing = error;
  }
  if (
    missing.status !== 2 ||
    !/^chaos: the harness needs @nestjs\/testing; install it/m.test(missing.stderr) ||
    /\n\s+at /.test(missing.stderr)
  ) {
    fail(`toolshield-chaos run without @nestjs/testing: exit ${missing.status}, ${missing.stderr}`);
  }
  step(
    '@toolshield/chaos injects faults with no @nestjs/testing; its CLI prints help and version (exit 0), and a run asks for it in one line',
  );

  // 7. With @nestjs/testing: one scenario of the README's config, chosen by name.
  install('-D', `@nestjs/testing@${rangeOf(root, '@nestjs/testing')}`);
  // The harness's types name @nestjs/testing: the config compiles only now.
  writeFileSync(join(app, 'src/chaos.config.ts'), chaosConfig.source);
  compile('chaos', ['src/chaos.config.ts']);
  const scenarioRun = runOrFail(
    `npx toolshield-chaos run --scenario "${chaosConfig.scenario}"`,
    'npx',
    [
      'toolshield-chaos',
      'run',
      'dist/chaos.config.js',
      '--scenario',
      chaosConfig.scenario,
      '--seeds',
      '3',
      '--reports',
      join(work, 'chaos-reports'),
    ],
    app,
    { env: appEnv, timeout: 120_000 },
  );
  if (
    !scenarioRun.includes(`PASS ${chaosConfig.scenario}`) ||
    !/chaos: 1 passed, 0 failed/.test(scenarioRun)
  ) {
    fail(`the chaos run printed:\n${scenarioRun}`);
  }
  step(`npx toolshield-chaos run: "${chaosConfig.scenario}" chosen by name, 3 seeds: PASS`);
}
