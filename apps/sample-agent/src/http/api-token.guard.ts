import {
  Inject,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_SECURITY_OPTIONS, type ApiSecurityOptions } from './api-security.options.js';

/** Routes a probe must reach without a token. */
const OPEN_PATHS = ['/api/health'];

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The token of `Authorization: Bearer …`, or of `?access_token=` on a GET (`EventSource` sets no headers). */
function presentedToken(request: IncomingMessage): string | undefined {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() === 'bearer' && token) return token;
  if (request.method !== 'GET') return undefined;
  return (
    new URL(request.url ?? '/', 'http://localhost').searchParams.get('access_token') ?? undefined
  );
}

/**
 * With `API_TOKEN` set, every route of the app (the API and MCP; not the health probe, not the
 * dashboard's static files) asks for it as a bearer token: 401 with `WWW-Authenticate: Bearer`
 * otherwise. Compared in constant time.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(@Inject(API_SECURITY_OPTIONS) options: ApiSecurityOptions) {
    if (options.token) this.expected = digest(options.token);
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (OPEN_PATHS.some((open) => path === open || path.startsWith(`${open}/`))) return true;
    const token = presentedToken(request);
    if (token !== undefined && timingSafeEqual(digest(token), this.expected)) return true;
    context
      .switchToHttp()
      .getResponse<ServerResponse>()
      .setHeader('www-authenticate', 'Bearer realm="toolshield-sample-agent"');
    throw new UnauthorizedException(
      'This service asks for its API token: send Authorization: Bearer <API_TOKEN>.',
    );
  }
}
