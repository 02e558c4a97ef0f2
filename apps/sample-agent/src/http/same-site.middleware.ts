import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendApiError } from './api-error.js';
import { API_SECURITY_OPTIONS, type ApiSecurityOptions } from './api-security.options.js';

/** Methods that change something: a browser sends them cross-site without asking first. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hostName(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function isOwnOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * Refuses (403) API requests from other sites: a `Host` the service does not answer to (a
 * DNS rebinding page reaches 127.0.0.1 under its own name), and a state-changing request
 * whose `Origin` is neither the service's own nor allowed (a form or `fetch` on another
 * site, which a browser sends without a preflight). Requests without `Origin` (curl, SDKs)
 * pass.
 */
@Injectable()
export class SameSiteMiddleware implements NestMiddleware {
  constructor(@Inject(API_SECURITY_OPTIONS) private readonly options: ApiSecurityOptions) {}

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const host = request.headers.host ?? '';
    const name = hostName(host);
    if (!name || !this.options.hosts.includes(name)) {
      return sendApiError(
        response,
        403,
        `This service does not answer to host ${JSON.stringify(host)}.`,
      );
    }
    const origin = request.headers.origin;
    if (
      STATE_CHANGING.has(request.method ?? '') &&
      origin !== undefined &&
      !this.options.origins.includes(origin) &&
      !isOwnOrigin(origin, host)
    ) {
      return sendApiError(
        response,
        403,
        `Requests from ${origin} may not change anything here: only the service's own pages may.`,
      );
    }
    next();
  }
}
