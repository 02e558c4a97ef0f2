import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { allowedCallers, isAllowedOrigin, McpEndpointExposedError } from './mcp-allowed-hosts.js';

const at = (address: string) => ({
  address,
  family: address.includes(':') ? 'IPv6' : 'IPv4',
  port: 3000,
});

describe('allowedCallers', () => {
  it('derives the loopback names from any loopback address', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1']) {
      expect(allowedCallers({}, at(address)).hosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    }
  });

  it('refuses every other address without a list, and takes any address with one', () => {
    fc.assert(
      fc.property(
        fc
          .oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('0.0.0.0', '::'))
          .filter((address) => !address.startsWith('127.') && address !== '::1'),
        (address) => {
          expect(() => allowedCallers({}, at(address))).toThrow(McpEndpointExposedError);
          expect(() => allowedCallers({}, at(address))).toThrow(address);
          expect(allowedCallers({ allowedHosts: ['MCP.example.com'] }, at(address)).hosts).toEqual([
            'mcp.example.com',
          ]);
        },
      ),
    );
  });

  it('refuses a pipe or an unknown address without a list', () => {
    expect(() => allowedCallers({}, '/run/app.sock')).toThrow(/\/run\/app\.sock/);
    expect(() => allowedCallers({}, null)).toThrow(McpEndpointExposedError);
  });
});

describe('isAllowedOrigin', () => {
  it('takes no Origin, the endpoint’s own, and the listed ones', () => {
    expect(isAllowedOrigin(undefined, '127.0.0.1:3000', [])).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', [])).toBe(true);
    expect(isAllowedOrigin('https://LOCALHOST:3000', 'localhost:3000', [])).toBe(true);
    expect(
      isAllowedOrigin('https://app.example.com', '127.0.0.1:3000', ['https://app.example.com']),
    ).toBe(true);
  });

  it('refuses other hosts, other ports, opaque and other-scheme origins', () => {
    expect(isAllowedOrigin('http://evil.example', '127.0.0.1:3000', [])).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:3001', '127.0.0.1:3000', [])).toBe(false);
    expect(isAllowedOrigin('null', '127.0.0.1:3000', [])).toBe(false);
    expect(isAllowedOrigin('file://127.0.0.1:3000', '127.0.0.1:3000', [])).toBe(false);
  });
});
