import { connect } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { isChaosInjected } from '../marking/chaos-marker.js';
import { fetchFailed, networkError } from './network-error.fault.js';
import { createNodeNetworkError } from './node-network-error.js';

describe('createNodeNetworkError', () => {
  it('has the exact shape of the error Node raises for a refused connection', async () => {
    const real = await new Promise<NodeJS.ErrnoException>((resolve) => {
      // Port 1 on loopback: nothing listens there, so the kernel refuses at once.
      connect({ host: '127.0.0.1', port: 1 }).on('error', resolve);
    });
    const injected = createNodeNetworkError('ECONNREFUSED');
    expect(Object.keys(injected).sort()).toEqual(Object.keys(real).sort());
    expect(injected.errno).toBe(real.errno);
    expect(injected.syscall).toBe(real.syscall);
    expect(injected.message).toMatch(/^connect ECONNREFUSED \d+\.\d+\.\d+\.\d+:\d+$/);
    expect(Object.getPrototypeOf(injected)).toBe(Error.prototype);
  });

  it.each([
    ['ECONNRESET', 'read', 'read ECONNRESET'],
    ['EPIPE', 'write', 'write EPIPE'],
    ['ETIMEDOUT', 'connect', 'connect ETIMEDOUT 192.0.2.1:443'],
    ['ENOTFOUND', 'getaddrinfo', 'getaddrinfo ENOTFOUND chaos.toolshield.invalid'],
    ['EAI_AGAIN', 'getaddrinfo', 'getaddrinfo EAI_AGAIN chaos.toolshield.invalid'],
  ] as const)("%s comes from %s with Node's message", (code, syscall, message) => {
    const error = createNodeNetworkError(code);
    expect(error).toMatchObject({ code, syscall, message });
    expect(typeof error.errno).toBe('number');
    expect(error.errno).toBeLessThan(0);
  });
});

describe('networkError', () => {
  it('rejects with the marked Node error and never calls the tool', async () => {
    const run = runFault(networkError('ENOTFOUND'));
    const error = await rejectionOf(run.promise);
    expect(error).toMatchObject({
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'chaos.toolshield.invalid',
      metadata: { chaos: true, chaosFault: 'network:ENOTFOUND', chaosRule: 'under-test' },
    });
    expect(isChaosInjected(error)).toBe(true);
    expect(run.toolCalls()).toBe(0);
  });

  it('defaults to ECONNRESET', async () => {
    expect(await rejectionOf(runFault(networkError()).promise)).toMatchObject({
      code: 'ECONNRESET',
    });
  });
});

describe('fetchFailed', () => {
  it("rejects like undici: TypeError('fetch failed') caused by a Node connection error", async () => {
    const error = (await rejectionOf(runFault(fetchFailed()).promise)) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
    expect(isChaosInjected(error)).toBe(true);
  });

  it('takes the cause code', async () => {
    const error = (await rejectionOf(runFault(fetchFailed('ECONNRESET')).promise)) as TypeError;
    expect(error.cause).toMatchObject({ code: 'ECONNRESET' });
  });
});
