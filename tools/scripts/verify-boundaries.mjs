#!/usr/bin/env node
/**
 * Proves that lint enforces the project boundaries: lints probe sources that break each rule
 * (as if they lived inside the projects) and fails unless ESLint reports every breach, and
 * lints one allowed import to show the rules do not over-fire.
 *
 * Run after Nx has computed the project graph (`npm test` runs it after `nx run-many`).
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

const probes = [
  {
    what: 'core imports @nestjs/*',
    file: 'packages/core/src/boundary-probe.ts',
    code: "import { Injectable } from '@nestjs/common';\nexport const probe = Injectable;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'core imports the nest package',
    file: 'packages/core/src/boundary-probe.ts',
    code: "import * as nest from '@toolshield/nest';\nexport const probe = nest;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'nest imports the chaos package',
    file: 'packages/nest/src/boundary-probe.ts',
    code: "import * as chaos from '@toolshield/chaos';\nexport const probe = chaos;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'nest reaches into core internals by a relative path',
    file: 'packages/nest/src/boundary-probe.ts',
    code: "import { ToolError } from '../../core/src/errors/tool-error.js';\nexport const probe = ToolError;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'nest imports the mcp package',
    file: 'packages/nest/src/boundary-probe.ts',
    code: "import * as mcp from '@toolshield/mcp';\nexport const probe = mcp;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'mcp imports the chaos package',
    file: 'packages/mcp/src/boundary-probe.ts',
    code: "import * as chaos from '@toolshield/chaos';\nexport const probe = chaos;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'the app reaches into a package by a deep import',
    file: 'apps/sample-agent/src/boundary-probe.ts',
    code: "import { ToolError } from '@toolshield/core/src/errors/tool-error.js';\nexport const probe = ToolError;\n",
    rule: 'no-restricted-imports',
  },
  {
    what: 'nest imports an adapter (adapters depend on core and nest, never the reverse)',
    file: 'packages/nest/src/boundary-probe.ts',
    code: "import * as aiSdk from '@toolshield/ai-sdk';\nexport const probe = aiSdk;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'an adapter imports the chaos package',
    file: 'packages/langchain/src/boundary-probe.ts',
    code: "import * as chaos from '@toolshield/chaos';\nexport const probe = chaos;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'the Mastra adapter imports another adapter than the AI SDK one',
    file: 'packages/mastra/src/boundary-probe.ts',
    code: "import * as langchain from '@toolshield/langchain';\nexport const probe = langchain;\n",
    rule: '@nx/enforce-module-boundaries',
  },
  {
    what: 'core imports the Mastra adapter',
    file: 'packages/core/src/boundary-probe.ts',
    code: "import * as mastra from '@toolshield/mastra';\nexport const probe = mastra;\n",
    rule: '@nx/enforce-module-boundaries',
  },
];

const allowed = {
  what: 'chaos imports core and nest through their entry points',
  file: 'packages/chaos/src/boundary-probe.ts',
  code: "import * as core from '@toolshield/core';\nimport * as nest from '@toolshield/nest';\nexport const probe = [core, nest];\n",
};

const ruleIds = async ({ file, code }) => {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
};

let failed = 0;
for (const probe of probes) {
  const reported = await ruleIds(probe);
  const ok = reported.includes(probe.rule);
  if (!ok) failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} lint rejects: ${probe.what}${ok ? '' : ` (got ${reported.join(', ') || 'nothing'})`}`);
}
const boundaryHits = (await ruleIds(allowed)).filter(
  (id) => id === '@nx/enforce-module-boundaries' || id === 'no-restricted-imports' || id.startsWith('fatal'),
);
if (boundaryHits.length > 0) failed++;
console.log(`${boundaryHits.length === 0 ? 'PASS' : 'FAIL'} lint allows: ${allowed.what}`);
console.log(`boundaries: ${probes.length + 1 - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
