import { getSystemErrorMap } from 'node:util';

/**
 * The Node error codes of a connection that failed.
 *
 * @publicApi
 */
export type NodeNetworkErrorCode =
  'ECONNRESET' | 'ECONNREFUSED' | 'ETIMEDOUT' | 'ENOTFOUND' | 'EAI_AGAIN' | 'EPIPE';

/** The host and address injected network errors name: reserved, never a real one. */
const CHAOS_HOST = 'chaos.toolshield.invalid';
const CHAOS_ADDRESS = '192.0.2.1';
const CHAOS_PORT = 443;

/** Which system call fails with each code, as Node reports it. */
const SYSCALLS: Readonly<
  Record<NodeNetworkErrorCode, 'read' | 'write' | 'connect' | 'getaddrinfo'>
> = {
  ECONNRESET: 'read',
  EPIPE: 'write',
  ECONNREFUSED: 'connect',
  ETIMEDOUT: 'connect',
  ENOTFOUND: 'getaddrinfo',
  EAI_AGAIN: 'getaddrinfo',
};

/**
 * A connection error exactly as Node's `net`/`dns` layers produce it: a plain `Error` with
 * `errno` (this platform's libuv number, e.g. -104 for ECONNRESET on Linux), `code`,
 * `syscall` and, as Node adds them, `address`/`port` (connect) or `hostname` (getaddrinfo).
 * Messages follow Node's (`connect ECONNREFUSED 192.0.2.1:443`, `read ECONNRESET`).
 *
 * @publicApi
 */
export function createNodeNetworkError(code: NodeNetworkErrorCode): NodeJS.ErrnoException {
  const syscall = SYSCALLS[code];
  // Node reports a failed lookup (libuv's EAI_NONAME) under the code ENOTFOUND.
  const errno = systemErrno(code === 'ENOTFOUND' ? 'EAI_NONAME' : code);
  switch (syscall) {
    case 'connect':
      return Object.assign(new Error(`connect ${code} ${CHAOS_ADDRESS}:${CHAOS_PORT}`), {
        errno,
        code,
        syscall,
        address: CHAOS_ADDRESS,
        port: CHAOS_PORT,
      });
    case 'getaddrinfo':
      return Object.assign(new Error(`getaddrinfo ${code} ${CHAOS_HOST}`), {
        errno,
        code,
        syscall,
        hostname: CHAOS_HOST,
      });
    default:
      return Object.assign(new Error(`${syscall} ${code}`), { errno, code, syscall });
  }
}

/**
 * undici's failure of `fetch()`: `TypeError('fetch failed')` whose `cause` is the Node
 * connection error underneath.
 *
 * @publicApi
 */
export function createFetchFailedError(causeCode: NodeNetworkErrorCode): TypeError {
  return new TypeError('fetch failed', { cause: createNodeNetworkError(causeCode) });
}

function systemErrno(name: string): number {
  for (const [errno, [errorName]] of getSystemErrorMap()) {
    if (errorName === name) return errno;
  }
  throw new Error(`This platform has no system error named ${name}`);
}
