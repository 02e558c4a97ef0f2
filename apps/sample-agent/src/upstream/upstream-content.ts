/** One search hit of the fixture upstream. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** The fixture upstream's answer to `GET /search?q=`. */
export interface SearchResults {
  readonly query: string;
  readonly results: readonly SearchHit[];
}

/** The fixture upstream's answer to `GET /page?url=`. */
export interface Page {
  readonly url: string;
  readonly title: string;
  readonly text: string;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'empty'
  );
}

/** Three made-up, deterministic hits for `query`. */
export function searchResultsFor(query: string): SearchResults {
  const topic = slug(query);
  return {
    query,
    results: [1, 2, 3].map((rank) => ({
      title: `${query} (result ${rank})`,
      url: `https://docs.example/${topic}/${rank}`,
      snippet: `What the web says about ${query}, part ${rank}.`,
    })),
  };
}

/** Paragraphs of a page whose URL ends in `/long`: about 250 KB of text. */
const LONG_PAGE_PARAGRAPHS = 2_000;

/** A made-up, deterministic page for `url` (a long one, past any sane budget, for `.../long`). */
export function pageFor(url: string): Page {
  const text = `The page at ${url} explains retries with Retry-After, circuit breakers and timeouts.`;
  return {
    url,
    title: `Page at ${url}`,
    text: url.endsWith('/long')
      ? Array.from({ length: LONG_PAGE_PARAGRAPHS }, (_, n) => `${n + 1}. ${text}`).join('\n')
      : text,
  };
}
