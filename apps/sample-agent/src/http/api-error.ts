import type { ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';

/** Writes the API's one error shape: `{ statusCode, error, message }`. */
export function sendApiError(
  response: ServerResponse,
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(statusCode, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message }));
}
