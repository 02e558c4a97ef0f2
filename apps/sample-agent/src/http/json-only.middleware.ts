import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendApiError } from './api-error.js';

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/**
 * Answers 415 to a request body that is not `application/json`: the API reads JSON only, and
 * the types a browser may send cross-site without a preflight (forms, `text/plain`) are
 * thereby refused even from a page the `Origin` check lets through.
 */
@Injectable()
export class JsonOnlyMiddleware implements NestMiddleware {
  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (hasBody(request) && type !== 'application/json') {
      return sendApiError(
        response,
        415,
        `The API reads JSON only: send the body as application/json, not ${type || 'no type'}.`,
      );
    }
    next();
  }
}
