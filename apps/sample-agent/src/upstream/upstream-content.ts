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

/** A made-up, deterministic page for `url`. */
export function pageFor(url: string): Page {
  return {
    url,
    title: `Page at ${url}`,
    text: `The page at ${url} explains retries with Retry-After, circuit breakers and timeouts.`,
  };
}
