import {
  latency,
  networkError,
  rateLimit,
  upstreamError,
  type ChaosFault,
  type ChaosRule,
  type NodeNetworkErrorCode,
} from '@toolshield/chaos';
import { InvalidChaosRuleError } from './chaos-rule-errors.js';
import { checkRuleTools, ruleTools, type ChaosToolScope } from './chaos-tool-scope.js';

/** A fault as JSON: what `PUT /api/chaos` accepts and `GET /api/chaos` shows. */
export type ChaosFaultSpec =
  | { readonly kind: 'rate_limit'; readonly retryAfterSeconds?: number }
  | { readonly kind: 'upstream_error'; readonly status?: 500 | 502 | 503 | 504 }
  | { readonly kind: 'network_error'; readonly code?: NodeNetworkErrorCode }
  | { readonly kind: 'latency'; readonly ms: number };

/** A chaos rule as JSON. */
export interface ChaosRuleSpec {
  readonly name: string;
  /**
   * Tool names or globs, each selecting at least one tool (`["*"]`: every tool). Left out:
   * the idempotent, read-only tools only, so a rule never hits a write by accident.
   */
  readonly tools?: readonly string[];
  readonly fault: ChaosFaultSpec;
  readonly probability?: number;
  readonly everyNth?: number;
  readonly firstN?: number;
  readonly maxInjections?: number;
}

/** The fields of a rule, in the order they are listed. */
const RULE_FIELDS = [
  'name',
  'tools',
  'fault',
  'probability',
  'everyNth',
  'firstN',
  'maxInjections',
] as const;
/** What `GET /api/chaos` adds to each rule: read-only, so ignored when a client sends them back. */
const COUNTER_FIELDS = new Set(['matchedCalls', 'injections']);

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UPSTREAM_STATUSES = new Set([500, 502, 503, 504]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalNumber(
  rule: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  integer = false,
): void {
  const value = rule[key];
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const what = integer ? 'a whole number' : 'a number';
    throw new InvalidChaosRuleError(`"${key}" must be ${what} from ${min} to ${max}.`);
  }
}

/** The rule's own fields, without the counters; an unknown field is refused. */
function ruleFields(value: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (COUNTER_FIELDS.has(key)) continue;
    if (!(RULE_FIELDS as readonly string[]).includes(key)) {
      throw new InvalidChaosRuleError(
        `unknown field ${JSON.stringify(key)}; known: ${RULE_FIELDS.join(', ')} (matchedCalls and injections are read-only and ignored).`,
      );
    }
    Object.defineProperty(fields, key, { value: value[key], enumerable: true });
  }
  return fields;
}

/** The fields each kind of fault takes besides `kind`. */
const FAULT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  rate_limit: ['retryAfterSeconds'],
  upstream_error: ['status'],
  network_error: ['code'],
  latency: ['ms'],
};

function checkFaultFields(spec: Record<string, unknown>): void {
  const kind = String(spec['kind']);
  if (!Object.hasOwn(FAULT_FIELDS, kind)) return;
  const allowed = FAULT_FIELDS[kind] ?? [];
  const unknown = Object.keys(spec).find((key) => key !== 'kind' && !allowed.includes(key));
  if (unknown !== undefined) {
    throw new InvalidChaosRuleError(
      `unknown field ${JSON.stringify(`fault.${unknown}`)}; a ${kind} fault takes ${allowed.join(', ')}.`,
    );
  }
}

function toFault(spec: unknown): ChaosFault {
  if (!isRecord(spec)) throw new InvalidChaosRuleError('"fault" must be an object with a "kind".');
  checkFaultFields(spec);
  switch (spec['kind']) {
    case 'rate_limit':
      optionalNumber(spec, 'retryAfterSeconds', 0, 3_600);
      return rateLimit({
        retryAfterSeconds: (spec['retryAfterSeconds'] as number | undefined) ?? 1,
      });
    case 'upstream_error': {
      const status = spec['status'] ?? 503;
      if (!UPSTREAM_STATUSES.has(status as number)) {
        throw new InvalidChaosRuleError('"fault.status" must be 500, 502, 503 or 504.');
      }
      return upstreamError({ status: status as 500 | 502 | 503 | 504 });
    }
    case 'network_error': {
      const code = spec['code'] ?? 'ECONNRESET';
      if (!NETWORK_CODES.has(code as string)) {
        throw new InvalidChaosRuleError(
          `"fault.code" must be one of ${[...NETWORK_CODES].join(', ')}.`,
        );
      }
      return networkError(code as NodeNetworkErrorCode);
    }
    case 'latency':
      optionalNumber(spec, 'ms', 0, 60_000);
      if (typeof spec['ms'] !== 'number')
        throw new InvalidChaosRuleError('"fault.ms" is required.');
      return latency({ kind: 'fixed', ms: spec['ms'] });
    default:
      throw new InvalidChaosRuleError(
        '"fault.kind" must be rate_limit, upstream_error, network_error or latency.',
      );
  }
}

/**
 * Checks a rule received as JSON (the counters `GET /api/chaos` shows are dropped) and
 * returns it typed; throws {@link InvalidChaosRuleError} naming the field.
 */
export function parseChaosRuleSpec(
  value: unknown,
  index: number,
  scope: ChaosToolScope,
): ChaosRuleSpec {
  try {
    if (!isRecord(value)) throw new InvalidChaosRuleError('a rule must be an object.');
    const rule = ruleFields(value);
    if (typeof rule['name'] !== 'string' || rule['name'] === '') {
      throw new InvalidChaosRuleError('"name" must be a non-empty string.');
    }
    const tools = rule['tools'];
    if (tools !== undefined) {
      if (!(Array.isArray(tools) && tools.every((tool) => typeof tool === 'string'))) {
        throw new InvalidChaosRuleError('"tools" must be a list of tool names or globs.');
      }
      if (tools.length === 0) {
        throw new InvalidChaosRuleError(
          '"tools" must name at least one tool ("*" for all), or be left out for the read-only, idempotent tools.',
        );
      }
      checkRuleTools(tools, scope);
    }
    optionalNumber(rule, 'probability', 0, 1);
    optionalNumber(rule, 'everyNth', 1, 1_000_000, true);
    optionalNumber(rule, 'firstN', 0, 1_000_000, true);
    optionalNumber(rule, 'maxInjections', 0, 1_000_000, true);
    toFault(rule['fault']);
    return rule as unknown as ChaosRuleSpec;
  } catch (error) {
    if (error instanceof InvalidChaosRuleError) {
      throw new InvalidChaosRuleError(`rules[${index}]: ${error.message}`);
    }
    throw error;
  }
}

/** The chaos rule a spec describes, reaching the tools {@link ruleTools} gives. */
export function toChaosRule(spec: ChaosRuleSpec, scope: ChaosToolScope): ChaosRule {
  const { fault, tools, ...selection } = spec;
  return { ...selection, tools: ruleTools(tools, scope), fault: toFault(fault) };
}
