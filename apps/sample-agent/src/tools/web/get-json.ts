/** Longest piece of an error body put into an error message. */
const MAX_DETAIL = 120;

/** An error page's text without its markup, cut short. */
function bodyDetail(body: string, contentType: string): string {
  const text = contentType.includes('html')
    ? body.replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ')
    : body;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

/**
 * `GET url` (or `init`'s request) with the call's signal; the JSON body on a 2xx answer. Anything else throws an
 * error carrying `status`, `headers` and `url`, which toolshield's classifier maps to the
 * taxonomy (429 → `rate_limited` with its `Retry-After`, 503 → `upstream_unavailable`, ...);
 * an HTML error page is reduced to its text. A connection reset mid-body rejects from
 * `response.text()` with the socket's error, which classifies as `network`.
 */
export async function getJson(
  url: string,
  signal: AbortSignal,
  init: Pick<RequestInit, 'method' | 'headers' | 'body'> = {},
): Promise<unknown> {
  const response = await fetch(url, { ...init, signal });
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    const detail = bodyDetail(body, contentType);
    throw Object.assign(new Error(`HTTP ${response.status} from ${url}: ${detail}`), {
      status: response.status,
      headers: response.headers,
      url,
      method: init.method ?? 'GET',
    });
  }
  if (!contentType.includes('json')) {
    throw Object.assign(new Error(`Expected JSON from ${url}, got ${contentType || 'no type'}.`), {
      status: 502,
      url,
    });
  }
  return JSON.parse(body) as unknown;
}
