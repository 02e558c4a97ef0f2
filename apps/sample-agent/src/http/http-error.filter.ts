import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { sendApiError } from './api-error.js';

function messageOf(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/**
 * Every HTTP error of the app in one shape, `{ statusCode, error, message }`: Nest's own
 * exceptions and those Express raises before a route runs (a body over the size limit, 413;
 * malformed JSON, 400), which Nest would answer without `error`.
 */
@Catch(HttpException)
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    if (response.headersSent) return void response.end();
    sendApiError(response, exception.getStatus(), messageOf(exception));
  }
}
