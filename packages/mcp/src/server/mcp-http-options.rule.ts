import {
  bool,
  either,
  func,
  listOf,
  objectOf,
  oneOf,
  required,
  text,
  withMethods,
  type OptionRule,
} from '@toolshield/core/internal';
import type {
  McpHttpOptions,
  McpProtectedResourceOptions,
} from '../mcp-module-options.interface.js';

/** A host name without port, as a `Host` header's host name reads (`[::1]` for IPv6). */
function hostName(): OptionRule {
  return {
    expected: "a host name without port ('mcp.example.com', '[::1]')",
    accepts: (value) => {
      if (typeof value !== 'string' || value === '') return false;
      try {
        return new URL(`http://${value}`).hostname === value.toLowerCase();
      } catch {
        return false;
      }
    },
  };
}

/** An absolute URL; with `originOnly`, just scheme, host and port (`https://app.example.com`). */
function url(originOnly: boolean): OptionRule {
  return {
    expected: originOnly
      ? "an origin ('https://app.example.com': scheme, host and port only)"
      : "an absolute http(s) URL ('https://mcp.example.com/mcp')",
    accepts: (value) => {
      if (typeof value !== 'string') return false;
      try {
        const parsed = new URL(value);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
        return !originOnly || parsed.origin === value;
      } catch {
        return false;
      }
    },
  };
}

const PROTECTED_RESOURCE_RULE = objectOf<McpProtectedResourceOptions>({
  authorizationServers: required({
    ...listOf(url(false)),
    expected: `a non-empty list of ${url(false).expected}`,
    accepts: (value) => Array.isArray(value) && value.length > 0,
  }),
  resource: url(false),
  scopesSupported: listOf(text(true)),
  resourceName: text(true),
});

/** The rule of `ToolShieldMcpModule.forRoot({ http })`. @internal */
export const MCP_HTTP_OPTIONS_RULE = objectOf<McpHttpOptions>({
  allowedHosts: listOf(hostName()),
  allowedOrigins: listOf(url(true)),
  enableDnsRebindingProtection: bool(),
  enableJsonResponse: bool(),
  protectedResource: PROTECTED_RESOURCE_RULE,
});

/** The rule of the endpoint's route options (`path`, `guards`). @internal */
export const MCP_ROUTE_OPTIONS_RULE = objectOf<{ path: unknown; guards: unknown }>({
  path: either(oneOf([false]), {
    expected: "a path starting with '/'",
    accepts: (value) => typeof value === 'string' && value.startsWith('/'),
  }),
  guards: listOf(either(func(), withMethods('a guard', ['canActivate']))),
});
