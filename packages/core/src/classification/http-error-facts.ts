import { readNumber, readProperty, readString } from './read-property.js';
import type { HeadersLike } from './retry-after.js';

/**
 * What an HTTP-status-bearing error says about the failed request, read by duck typing so
 * that core needs none of the libraries: Nest's `HttpException` (`getStatus()`,
 * `getResponse()`), axios-style errors (`response.status`, `response.headers`, `config`),
 * and errors with a `status` or `statusCode` of their own (fetch wrappers, SDK errors).
 */
export interface HttpErrorFacts {
  readonly status: number;
  readonly headers?: HeadersLike;
  readonly url?: string;
  readonly method?: string;
  /** Flattened validation messages of a Nest `ValidationPipe` rejection. */
  readonly validationMessages?: readonly string[];
}

/** The HTTP facts of `error`, or `undefined` when it carries no HTTP error status (400–599). */
export function readHttpErrorFacts(error: unknown): HttpErrorFacts | undefined {
  const response = readProperty(error, 'response');
  const status = statusOf(error, response);
  if (status === undefined || status < 400 || status > 599) return undefined;
  const config = readProperty(error, 'config');
  const headers = readProperty(response, 'headers') ?? readProperty(error, 'headers');
  const url = readString(config, 'url') ?? readString(response, 'url') ?? readString(error, 'url');
  const method = readString(config, 'method') ?? readString(error, 'method');
  const validationMessages = nestValidationMessages(error);
  return {
    status,
    ...(typeof headers === 'object' && headers !== null ? { headers: headers as HeadersLike } : {}),
    ...(url === undefined ? {} : { url }),
    ...(method === undefined ? {} : { method: method.toUpperCase() }),
    ...(validationMessages === undefined ? {} : { validationMessages }),
  };
}

function statusOf(error: unknown, response: unknown): number | undefined {
  return (
    callNumber(error, 'getStatus') ??
    readNumber(response, 'status') ??
    readNumber(response, 'statusCode') ??
    readNumber(error, 'status') ??
    readNumber(error, 'statusCode')
  );
}

function nestValidationMessages(error: unknown): string[] | undefined {
  const message = readProperty(callMethod(error, 'getResponse'), 'message');
  return Array.isArray(message) &&
    message.length > 0 &&
    message.every((item) => typeof item === 'string')
    ? (message as string[])
    : undefined;
}

function callNumber(target: unknown, method: string): number | undefined {
  const value = callMethod(target, method);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function callMethod(target: unknown, method: string): unknown {
  const fn = readProperty(target, method);
  if (typeof fn !== 'function') return undefined;
  try {
    return (fn as () => unknown).call(target);
  } catch {
    return undefined;
  }
}
