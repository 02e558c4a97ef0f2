import { ResultMetrics } from '../../src/telemetry/result-metrics.js';
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ToolShieldMetrics } from '../../src/telemetry/index.js';
import { ResilienceMetrics } from '../../src/telemetry/resilience-metrics.js';
import { ToolMetrics } from '../../src/telemetry/tool-metrics.js';
import { FakeMeterProvider } from './fake-otel.js';

/** The rows of the README's metrics table: instrument name and unit. */
function readmeMetrics(): { instrument: string; unit: string }[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('**Metrics**'));
  const rows = table.split('\n').filter((line) => /^\| `[a-z_.]+` +\|/.test(line));
  return rows.map((row) => {
    const [instrument, kind] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    return {
      instrument: instrument.replaceAll('`', ''),
      unit: /`([^`]+)`/.exec(kind)?.[1] ?? '',
    };
  });
}

describe('the nest README metrics table', () => {
  it('lists every instrument the telemetry module creates, with its unit', () => {
    const metering = new FakeMeterProvider();
    const meter = metering.getMeter();
    new ToolMetrics(meter, (name) => name);
    new ResilienceMetrics(meter, (name) => name);
    new ResultMetrics(meter, (name) => name);
    const created = [...metering.units].map(([instrument, unit]) => ({ instrument, unit }));

    expect(readmeMetrics()).toEqual(expect.arrayContaining(created));
    expect(readmeMetrics()).toHaveLength(Object.values(ToolShieldMetrics).length);
    expect(created).toHaveLength(Object.values(ToolShieldMetrics).length);
  });
});
