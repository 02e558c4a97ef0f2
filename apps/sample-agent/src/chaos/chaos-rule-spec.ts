import {
  latency,
  networkError,
  rateLimit,
  upstreamError,
  type ChaosFault,
  type ChaosRule,
  type NodeNetworkErrorCode,
} from '@toolshield/chaos';

/** A fault as JSON: what `PUT /api/chaos` accepts and `GET /api/chaos` shows. */
export type ChaosFaultSpec =
  | { readonly kind: 'rate_limit'; readonly retryAfterSeconds?: number }
  | { readonly kind: 'upstream_error'; readonly status?: 500 | 502 | 503 | 504 }
  | { readonly kind: 'network_error'; readonly code?: NodeNetworkErrorCode }
  | { readonly kind: 'latency'; readonly ms: number };

/** A chaos rule as JSON. */
export interface ChaosRuleSpec {
  readonly name: string;
  /** Tool names or globs; all tools when left out. */
  readonly tools?: readonly string[];
  readonly fault: ChaosFaultSpec;
  readonly probability?: number;
  readonly everyNth?: number;
  readonly firstN?: number;
  readonly maxInjections?: number;
}

/** A rule spec that cannot be used, with the reason. */
export class InvalidChaosRuleError extends Error {
  override readonly name = 'InvalidChaosRuleError';
}

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
): void {
  const value = rule[key];
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidChaosRuleError(`"${key}" must be a number from ${min} to ${max}.`);
  }
}

function toFault(spec: unknown): ChaosFault {
  if (!isRecord(spec)) throw new InvalidChaosRuleError('"fault" must be an object with a "kind".');
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

/** Checks a rule received as JSON and returns it typed; throws {@link InvalidChaosRuleError}. */
export function parseChaosRuleSpec(value: unknown, index: number): ChaosRuleSpec {
  try {
    if (!isRecord(value)) throw new InvalidChaosRuleError('a rule must be an object.');
    if (typeof value['name'] !== 'string' || value['name'] === '') {
      throw new InvalidChaosRuleError('"name" must be a non-empty string.');
    }
    const tools = value['tools'];
    if (
      tools !== undefined &&
      !(Array.isArray(tools) && tools.every((tool) => typeof tool === 'string'))
    ) {
      throw new InvalidChaosRuleError('"tools" must be a list of tool names or globs.');
    }
    optionalNumber(value, 'probability', 0, 1);
    optionalNumber(value, 'everyNth', 1, 1_000_000);
    optionalNumber(value, 'firstN', 0, 1_000_000);
    optionalNumber(value, 'maxInjections', 0, 1_000_000);
    toFault(value['fault']);
    return value as unknown as ChaosRuleSpec;
  } catch (error) {
    if (error instanceof InvalidChaosRuleError) {
      throw new InvalidChaosRuleError(`rules[${index}]: ${error.message}`);
    }
    throw error;
  }
}

/** The chaos rule a spec describes. */
export function toChaosRule(spec: ChaosRuleSpec): ChaosRule {
  const { fault, tools, ...selection } = spec;
  return { ...selection, ...(tools ? { tools } : {}), fault: toFault(fault) };
}
