/** Reason phrases of the statuses chaos produces (RFC 9110, RFC 6585). */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Which HTTP client an injected HTTP error imitates.
 *
 * - `axios`: `isAxiosError`, `code` (`ERR_BAD_REQUEST` / `ERR_BAD_RESPONSE`), and
 *   `response.{status, statusText, headers, data}` with lowercase header names.
 * - `fetch`: the error a fetch wrapper (ky, ofetch) throws: `response` is a real `Response`
 *   whose `headers` is a `Headers` instance.
 *
 * Both also carry `status`, `statusCode` and a plain lowercase `headers` record at the top,
 * so any classifier path (`err.status`, `err.response.status`, headers either way) sees them.
 *
 * @publicApi
 */
export type HttpErrorShape = 'axios' | 'fetch';

/**
 * An HTTP error response as a client library throws it. The class name starts with `Chaos`
 * so logs tell it from a real one at a glance; its fields are those of the real thing.
 *
 * @publicApi
 */
export class ChaosHttpError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly statusText: string;
  /** Lowercase header names, string values. */
  readonly headers: Readonly<Record<string, string>>;
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly headers: Readonly<Record<string, string>> | Headers;
    readonly data?: unknown;
  };
  readonly isAxiosError?: true;
  readonly code?: string;

  constructor(
    status: number,
    headers: Readonly<Record<string, string>>,
    shape: HttpErrorShape,
    url: string,
  ) {
    const statusText = REASON_PHRASES[status] ?? '';
    super(
      shape === 'axios'
        ? `Request failed with status code ${status}`
        : `Request failed with status code ${status} ${statusText}: GET ${url}`,
    );
    this.name = 'ChaosHttpError';
    this.status = status;
    this.statusCode = status;
    this.statusText = statusText;
    this.headers = Object.freeze({ ...headers });
    if (shape === 'axios') {
      this.isAxiosError = true;
      this.code = status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST';
      this.response = { status, statusText, headers: this.headers, data: statusText };
    } else {
      this.response = new Response(null, { status, statusText, headers: this.headers });
    }
  }
}

/**
 * The URL injected HTTP errors name: reserved, so it can never be mistaken for a real host.
 * @publicApi
 */
export const CHAOS_HTTP_URL = 'https://chaos.toolshield.invalid/';
