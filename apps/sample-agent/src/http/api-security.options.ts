/** The environment variables that secure the API. */
export interface ApiSecurityEnvironment {
  /** A bearer token every API and MCP request must carry (none: the API is open to this machine). */
  readonly API_TOKEN?: string;
  /** Host names besides the loopback ones the service answers to (comma separated), behind a proxy. */
  readonly ALLOWED_HOSTS?: string;
  /** Origins besides the service's own whose pages may change things (comma separated). */
  readonly ALLOWED_ORIGINS?: string;
}

/** Who may use the API. */
export interface ApiSecurityOptions {
  /** The bearer token, when the API asks for one. */
  readonly token?: string;
  /** Host names (lower case, no port) the service answers to. */
  readonly hosts: readonly string[];
  /** Origins besides the service's own allowed to make state-changing requests. */
  readonly origins: readonly string[];
}

/** Injection token of the {@link ApiSecurityOptions}. */
export const API_SECURITY_OPTIONS = Symbol('ApiSecurityOptions');

/** The loopback names: the service listens on 127.0.0.1. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The options `env` sets: `API_TOKEN`, `ALLOWED_HOSTS`, `ALLOWED_ORIGINS`. */
export function apiSecurityFromEnv(env: ApiSecurityEnvironment): ApiSecurityOptions {
  const token = env.API_TOKEN?.trim();
  return {
    ...(token ? { token } : {}),
    hosts: [...LOOPBACK_HOSTS, ...list(env.ALLOWED_HOSTS).map((host) => host.toLowerCase())],
    origins: list(env.ALLOWED_ORIGINS),
  };
}
