import { describe, expect, it } from '@jest/globals';
import { InventoryAppModule } from '../../test/fixtures/inventory.tools.js';
import { networkError } from '../faults/network-error.fault.js';
import { rateLimit } from '../faults/rate-limit.fault.js';
import { runChaosHarness } from './run-chaos-harness.js';

describe('runChaosHarness', () => {
  it('runs scenarios x seeds against the app in virtual time and passes a sound pipeline', async () => {
    const report = await runChaosHarness({
      module: InventoryAppModule,
      seeds: 3,
      scenarios: [
        {
          name: 'rate limited lookups',
          rules: [
            {
              tools: 'lookup_stock',
              fault: rateLimit({ retryAfterSeconds: 30 }),
              probability: 0.3,
            },
          ],
          calls: [{ tool: 'lookup_stock', argumentsFor: (index) => ({ sku: `S-${index}` }) }],
        },
        {
          name: 'dropped connections',
          rules: [{ fault: networkError('ECONNRESET'), probability: 0.5 }],
          calls: [
            { tool: 'reserve_item', arguments: { sku: 'A' } },
            { tool: 'lookup_stock', arguments: '{"sku":"B"}' },
          ],
          count: 50,
        },
      ],
    });
    expect(report.scenarios.flatMap((s) => s.seeds.flatMap((x) => x.violations))).toEqual([]);
    expect(report.status).toBe('PASS');
    expect(report.totals).toMatchObject({ scenarios: 2, passed: 2, seedRuns: 6, calls: 450 });
    const [limited] = report.scenarios;
    // Retries happened, each after a 30 s Retry-After of virtual time.
    expect(limited?.seeds.some((seed) => (seed.retryCounts['1'] ?? 0) > 0)).toBe(true);
    expect(limited?.seeds[0]?.samples[0]).toMatchObject({
      tool: 'lookup_stock',
      outcome: { success: true },
    });
  });

  it('replays a seed exactly, retry jitter of concurrent calls included', async () => {
    const config = {
      module: InventoryAppModule,
      seeds: [11, 11],
      scenarios: [
        {
          name: 'flaky',
          rules: [{ fault: networkError('ECONNRESET'), probability: 0.4 }],
          calls: [{ tool: 'lookup_stock', arguments: { sku: 'A' } }],
          count: 60,
          concurrency: 10,
        },
      ],
    };
    const [first, second] = (await runChaosHarness(config)).scenarios[0]?.seeds ?? [];
    expect(first?.retryCounts).toEqual(second?.retryCounts);
    expect(first?.samples).toEqual(second?.samples);
  });
});
