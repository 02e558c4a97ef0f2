import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool, ToolArgs, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import v8 from 'node:v8';
import { readFileSync } from 'node:fs';
import { setImmediate as tick } from 'node:timers/promises';
import { lookupBody, type LookupArgs } from './fixtures.js';
const closedGate = new Promise<void>(() => undefined);
@Injectable()
class T {
  @Tool({ name: 'wait', description: 'x', timeoutMs: 600_000 })
  async wait(@ToolArgs() args: LookupArgs) { await closedGate; return lookupBody(args); }
}
@Module({ imports: [ToolShieldModule.forRoot({})], providers: [T] })
class M {}
const app = await NestFactory.createApplicationContext(M, { logger: false });
await app.init();
const ex = app.get(ToolExecutor);
const gc = (globalThis as any).gc;
const json = JSON.stringify({ city: 'Paris' });
const calls: unknown[] = [];
for (let i = 0; i < 10; i++) calls.push(ex.execute({ id: 'w' + i, name: 'wait', arguments: json }));
async function snap(file: string) { for (let i = 0; i < 4; i++) { gc(); await tick(); } return v8.writeHeapSnapshot(file); }
const a = await snap('/tmp/a.heapsnapshot');
for (let i = 0; i < 10000; i++) calls.push(ex.execute({ id: 'c' + i, name: 'wait', arguments: json }));
const b = await snap('/tmp/b.heapsnapshot');
function agg(file: string) {
  const s = JSON.parse(readFileSync(file, 'utf8'));
  const f = s.snapshot.meta.node_fields; const n = f.length; const types = s.snapshot.meta.node_types[0];
  const ti = f.indexOf('type'), ni = f.indexOf('name'), si = f.indexOf('self_size');
  const m = new Map<string, [number, number]>();
  for (let i = 0; i < s.nodes.length; i += n) {
    const key = types[s.nodes[i + ti]] + ':' + (s.strings[s.nodes[i + ni]] as string).slice(0, 60);
    const e = m.get(key) ?? [0, 0]; e[0]++; e[1] += s.nodes[i + si]; m.set(key, e);
  }
  return m;
}
const ma = agg(a), mb = agg(b);
const rows: [string, number, number][] = [];
for (const [k, v] of mb) { const o = ma.get(k) ?? [0, 0]; const dc = v[0] - o[0], ds = v[1] - o[1]; if (ds > 10000 * 16) rows.push([k, dc, ds]); }
rows.sort((x, y) => y[2] - x[2]);
let tot = 0; for (const r of rows) tot += r[2];
console.log('total per call', (tot / 10000).toFixed(0));
for (const r of rows.slice(0, 40)) console.log((r[2] / 10000).toFixed(0).padStart(6), (r[1] / 10000).toFixed(2).padStart(6), r[0]);
process.exit(0);
