import { distance } from 'fastest-levenshtein';

/** Edits allowed, as a share of the longer name, for a name to count as close. */
const MAX_EDIT_RATIO = 0.4;
/** Score given when the asked name lies inside an offered one: close, but behind a small typo. */
const CONTAINMENT_SCORE = 0.35;
/** Shortest name part compared on its own or by containment. */
const MIN_PART_LENGTH = 4;

const SEPARATORS = /[\s_\-.:/]+/g;
/** How MCP gateways and others namespace tools: `server__tool`, `server.tool`, `server/tool`. */
const NAMESPACE_SEPARATOR = /__|[./:]/;

/**
 * The registered tool names closest to `name`, best first, for a "did you mean" hint.
 *
 * Comparison ignores case and separators (`get-weather` ≈ `GetWeather` ≈ `get_weather`) and
 * understands namespaced names, so `sequential-thinking` suggests
 * `sequential-thinking__sequentialthinking` and `server.search` suggests `server__search`.
 * Returns `[]` when nothing is close.
 *
 * @example
 * suggestToolNames('get_wether', ['get_weather', 'send_email']); // ['get_weather']
 *
 * @publicApi
 */
export function suggestToolNames(name: string, available: readonly string[], max = 3): string[] {
  const wanted = nameForms(name, 'last');
  if (wanted.length === 0 || max <= 0) return [];
  return [...new Set(available)]
    .map((tool, index) => ({ tool, index, score: bestScore(wanted, nameForms(tool, 'all')) }))
    .filter((candidate) => candidate.score <= MAX_EDIT_RATIO)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, max)
    .map((candidate) => candidate.tool);
}

/**
 * The whole name and its long-enough namespace parts, normalised: every part of a registered
 * name (the server alone may be asked for), only the last part (the tool) of the asked name.
 */
function nameForms(name: string, parts: 'all' | 'last'): string[] {
  const split = name.split(NAMESPACE_SEPARATOR).map(normalise);
  const kept = (parts === 'all' ? split : split.slice(-1)).filter(
    (part) => part.length >= MIN_PART_LENGTH,
  );
  return [...new Set([normalise(name), ...kept])].filter((form) => form !== '');
}

function normalise(name: string): string {
  return name.toLowerCase().replace(SEPARATORS, '');
}

function bestScore(wanted: readonly string[], offered: readonly string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const a of wanted) {
    for (const b of offered) best = Math.min(best, score(a, b));
  }
  return best;
}

/**
 * 0 for equal names, the edit ratio otherwise; an asked name inside an offered one is close.
 * Names whose lengths alone put them too far apart skip the edit distance (it is at least
 * the difference in length), so a huge asked name costs no more than reading it.
 */
function score(asked: string, offered: string): number {
  const longer = Math.max(asked.length, offered.length);
  const contained = asked.length >= MIN_PART_LENGTH && offered.includes(asked);
  const floor = Math.abs(asked.length - offered.length) / longer;
  if (floor > MAX_EDIT_RATIO) return contained ? CONTAINMENT_SCORE : floor;
  const ratio = distance(asked, offered) / longer;
  return contained ? Math.min(ratio, CONTAINMENT_SCORE) : ratio;
}
