// Per-tool health cards: calls, success share, p50/p95, retries, failures by type, the
// current rate limit, and the breaker's state over the last minutes as a strip.

const SVG = 'http://www.w3.org/2000/svg';
const STRIP_WIDTH = 300;
const STRIP_HEIGHT = 12;

const ms = (value) =>
  value === null
    ? '–'
    : value < 1_000
      ? `${Math.round(value)} ms`
      : `${(value / 1_000).toFixed(2)} s`;

/** The breaker's states over `[now - historyMs, now]` as segments, from its changes. */
export function breakerSegments(changes, current, now, historyMs) {
  const from = now - historyMs;
  const segments = [];
  let state = changes[0]?.from ?? current;
  let start = from;
  for (const change of changes) {
    if (change.at > start) segments.push({ state, start, end: change.at });
    state = change.to;
    start = Math.max(change.at, from);
  }
  segments.push({ state, start, end: now });
  return segments;
}

function strip(report, now, historyMs) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${STRIP_WIDTH} ${STRIP_HEIGHT}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'breaker-strip');
  svg.setAttribute('role', 'img');
  const segments = breakerSegments(report.breakerChanges, report.breaker, now, historyMs);
  const summary = segments
    .filter((segment) => segment.state !== 'closed')
    .map((segment) => `${segment.state} ${ms(segment.end - segment.start)}`);
  svg.setAttribute(
    'aria-label',
    `breaker over the last ${historyMs / 60_000} minutes: ${summary.length ? summary.join(', ') : 'closed throughout'}`,
  );
  const x = (t) => ((t - (now - historyMs)) / historyMs) * STRIP_WIDTH;
  for (const segment of segments) {
    const rect = document.createElementNS(SVG, 'rect');
    const left = x(segment.start);
    // At least a pixel wide: a breaker open for 1.5 s still shows on a 5-minute strip.
    const width = Math.max(x(segment.end) - left, segment.state === 'closed' ? 0 : 1.5);
    for (const [name, value] of Object.entries({
      x: left,
      y: 0,
      width,
      height: STRIP_HEIGHT,
      class: `segment ${segment.state}`,
      'data-state': segment.state,
    }))
      rect.setAttribute(name, String(value));
    svg.append(rect);
  }
  return svg;
}

function figure(label, value) {
  const item = document.createElement('div');
  item.className = 'figure';
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  dd.textContent = value;
  item.append(dt, dd);
  return item;
}

/** One card per tool in `health` (the answer of `GET /api/tool-health`). */
export function drawHealth(container, health) {
  const cards = health.tools.map((report) => {
    const card = document.createElement('article');
    card.className = 'health-card';
    card.dataset.tool = report.tool;
    const head = document.createElement('h3');
    const name = document.createElement('code');
    name.textContent = report.tool;
    const state = document.createElement('span');
    state.className = `badge ${report.breaker}`;
    state.textContent = report.breaker;
    head.append(name, state);
    const figures = document.createElement('dl');
    figures.append(
      figure('calls', String(report.calls)),
      figure(
        'success',
        report.successShare === null ? '–' : `${Math.round(report.successShare * 100)} %`,
      ),
      figure('p50', ms(report.p50Ms)),
      figure('p95', ms(report.p95Ms)),
      figure('retries', String(report.retries)),
      ...(report.rate === undefined ? [] : [figure('rate limit', `${report.rate.toFixed(1)}/s`)]),
    );
    const failures = document.createElement('p');
    failures.className = 'failures';
    const entries = Object.entries(report.failures);
    failures.textContent = entries.length
      ? entries.map(([type, count]) => `${type} ${count}`).join(' · ')
      : 'no failures';
    const stripLabel = document.createElement('p');
    stripLabel.className = 'strip-label';
    stripLabel.textContent = `breaker, last ${health.historyMs / 60_000} min`;
    card.append(head, figures, failures, stripLabel, strip(report, health.now, health.historyMs));
    return card;
  });
  container.replaceChildren(...cards);
  if (cards.length === 0) container.textContent = 'No tool has been called yet.';
}
