// A run's waterfall: model steps, tool calls and each attempt as bars on a time axis (plain
// SVG), with the waits between attempts as gaps, breaker changes and chaos as markers.

import { colourOf } from './waterfall-model.js';

export { buildWaterfall } from './waterfall-model.js';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 26;
const AXIS = 24;
/** The fewest pixels a second gets: longer runs scroll inside the waterfall's box. */
const MIN_PX_PER_MS = 0.12;

/** A tick step (ms) giving about one label per 90 px. */
function tickStep(pxPerMs) {
  const steps = [50, 100, 250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000];
  return steps.find((step) => step * pxPerMs >= 90) ?? 600_000;
}

const seconds = (ms) =>
  ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;

function node(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** What a row is called in the label column. */
export function rowLabel(row) {
  if (row.kind === 'step') return `model step ${row.step}`;
  return row.tool;
}

/**
 * Draws `model` into `labels` (the row names) and `svg` (the bars), `width` px available.
 * `onSelect(detail)` gets the details of a clicked or focused bar.
 */
export function drawWaterfall(model, { svg, labels, width }, onSelect) {
  const pxPerMs = Math.max(
    (width - (model.markers.length ? 90 : 16)) / model.duration,
    MIN_PX_PER_MS,
  );
  // Room on the right and at the bottom for the last marker's label.
  const chartWidth = Math.ceil(model.duration * pxPerMs) + (model.markers.length ? 90 : 16);
  const height = AXIS + model.rows.length * ROW + (model.markers.length ? 30 : 6);
  const x = (t) => 8 + t * pxPerMs;
  svg.replaceChildren();
  svg.setAttribute('width', chartWidth);
  svg.setAttribute('height', height);
  svg.setAttribute('viewBox', `0 0 ${chartWidth} ${height}`);
  svg.dataset.pxPerMs = String(pxPerMs);
  svg.dataset.t0 = String(model.t0);

  const step = tickStep(pxPerMs);
  const axis = node('g', { class: 'axis' });
  for (let t = 0; t <= model.duration; t += step) {
    axis.append(
      node('line', { x1: x(t), x2: x(t), y1: AXIS - 6, y2: height, class: 'tick' }),
      node('text', { x: x(t) + 3, y: AXIS - 10 }, seconds(t)),
    );
  }
  svg.append(axis);

  labels.replaceChildren(
    Object.assign(document.createElement('div'), {
      className: 'wf-axis-label',
      textContent: 'time',
    }),
  );
  model.rows.forEach((row, index) => {
    const y = AXIS + index * ROW;
    const label = document.createElement('div');
    label.className = `wf-label ${row.kind}`;
    label.textContent = rowLabel(row);
    label.title = row.kind === 'call' ? `${row.tool} ${row.arguments}` : rowLabel(row);
    labels.append(label);
    svg.append(row.kind === 'step' ? stepBar(row, y, x, onSelect) : callBars(row, y, x, onSelect));
  });

  // Marker labels at the bottom, on two levels so that neighbours do not overlap.
  let lastLabel = { x: -Infinity, level: 1 };
  for (const marker of model.markers) {
    const group = node('g', { class: `marker ${marker.kind}`, 'data-kind': marker.kind });
    const mx = x(marker.t);
    if (marker.kind === 'breaker') {
      group.dataset.to = marker.to;
      group.append(
        node('line', { x1: mx, x2: mx, y1: AXIS - 4, y2: height }),
        node('path', { d: `M${mx - 5} ${AXIS - 8} h10 l-5 7 z` }),
      );
      const level = mx - lastLabel.x < 100 ? 1 - lastLabel.level : 0;
      lastLabel = { x: mx, level };
      group.append(
        node(
          'text',
          { x: mx + 4, y: height - 4 - level * 12 },
          `breaker ${marker.to.replace('_', '-')}`,
        ),
      );
    } else {
      const row = model.rows.findIndex((candidate) => candidate.callId === marker.callId);
      const cy = AXIS + row * ROW + ROW / 2;
      group.append(node('path', { d: `M${mx} ${cy - 7} l6 7 l-6 7 l-6 -7 z` }));
    }
    group.append(node('title', {}, `${seconds(marker.t)}: ${marker.text}`));
    svg.append(group);
  }
  performance.mark('waterfall-drawn');
}

function bar(attributes, title, detail, onSelect) {
  const rect = node('rect', { ...attributes, tabindex: 0, role: 'button', 'aria-label': title });
  rect.append(node('title', {}, title));
  const select = () => onSelect(detail);
  rect.addEventListener('click', select);
  rect.addEventListener('keydown', (key) => {
    if (key.key === 'Enter' || key.key === ' ') select();
  });
  return rect;
}

function stepBar(row, y, x, onSelect) {
  const group = node('g', { class: 'row step', 'data-step': row.step });
  const title = `model step ${row.step}: ${seconds(row.end - row.start)}`;
  const detail = {
    title,
    lines: [
      ['messages sent', String(row.messages)],
      row.error ? ['failed', row.error] : ['reply', row.reply?.content || '(no text)'],
      ...(row.reply?.toolCalls ?? []).map((call) => [`asks for ${call.name}`, call.arguments]),
    ],
  };
  group.append(
    bar(
      {
        x: x(row.start),
        y: y + 6,
        width: Math.max(2, x(row.end) - x(row.start)),
        height: ROW - 12,
        class: 'bar step',
        rx: 2,
      },
      title,
      detail,
      onSelect,
    ),
  );
  return group;
}

function callBars(call, y, x, onSelect) {
  const group = node('g', {
    class: 'row call',
    'data-call-id': call.callId,
    'data-tool': call.tool,
  });
  group.append(
    node('line', {
      x1: x(call.start),
      x2: x(call.end),
      y1: y + ROW / 2,
      y2: y + ROW / 2,
      class: 'span',
    }),
  );
  for (const wait of call.waits) {
    const w = node('g', {
      class: 'wait',
      'data-kind': wait.kind,
      'data-ms': wait.end - wait.start,
    });
    w.append(
      node('line', { x1: x(wait.start), x2: x(wait.end), y1: y + ROW / 2, y2: y + ROW / 2 }),
      node('title', {}, `${wait.kind} wait: ${seconds(wait.end - wait.start)}`),
    );
    if (x(wait.end) - x(wait.start) > 90) {
      w.append(
        node(
          'text',
          { x: x(wait.start) + 4, y: y + ROW / 2 - 3 },
          `${wait.kind} ${seconds(wait.end - wait.start)}`,
        ),
      );
    }
    group.append(w);
  }
  for (const attempt of call.attempts) {
    const duration = attempt.end - attempt.start;
    const outcome = attempt.errorType ?? 'ok';
    const title = `${call.tool} attempt ${attempt.number}: ${outcome}, ${seconds(duration)}`;
    const detail = {
      title,
      lines: [
        ['arguments', call.arguments],
        ...(attempt.errorType
          ? [
              [
                'error',
                `${attempt.errorType}${attempt.chaos ? ' (chaos)' : ''}: ${attempt.message ?? ''}`,
              ],
            ]
          : []),
        ...(call.output !== undefined && !attempt.errorType
          ? [['output', JSON.stringify(call.output)]]
          : []),
        ...(call.modelRead !== undefined ? [['the model read', call.modelRead]] : []),
        [
          'call',
          `${seconds(call.end - call.start)}, ${call.attempts.length} attempt(s)${call.errorType ? `, failed: ${call.errorType}` : ''}`,
        ],
      ],
    };
    const rect = bar(
      {
        x: x(attempt.start),
        y: y + 5,
        width: Math.max(2, x(attempt.end) - x(attempt.start)),
        height: ROW - 10,
        rx: 2,
        fill: colourOf(attempt.errorType),
        class: `bar attempt ${attempt.errorType ? 'failed' : 'ok'}`,
        'data-attempt': attempt.number,
        'data-start': attempt.start,
        'data-end': attempt.end,
        'data-outcome': outcome,
      },
      title,
      detail,
      onSelect,
    );
    group.append(rect);
  }
  return group;
}

/** The colours the legend explains, for the failure types in `model`. */
export function legendEntries(model) {
  const types = new Set();
  for (const row of model.rows)
    for (const attempt of row.attempts ?? []) if (attempt.errorType) types.add(attempt.errorType);
  return [
    ['model step', '#2f6fb3'],
    ['attempt ok', colourOf(undefined)],
    ...[...types].sort().map((type) => [type, colourOf(type)]),
  ];
}
