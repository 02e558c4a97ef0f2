/**
 * What a class-validator DTO costs a tool (issue 14, goal 3: at most 1.5× the bare Nest call),
 * side by side in one process: the bare Nest call (row b of the overhead table), the default
 * tool without a DTO, a tool with a one-property DTO and one with a nested DTO, on success and
 * on `invalid_input`, and `ToolValidationPipe.transform` alone on its compiled path and on
 * class-validator's path (a subclass of the pipe, which always takes it).
 *
 * Method as in overhead.ts: each sample is BATCH sequential awaited calls, every row sampled
 * in each of ROUNDS rounds in a rotated order; reported per row the median over rounds of the
 * round medians, their min–max, and ratios to the bare Nest call taken within each round.
 */
import 'reflect-metadata';
import { ConsoleLogger, Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { ToolCallContext, ToolCallRequest, ToolOutcome } from '@toolshield/core';
import { Tool, ToolArgs, ToolCall, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { ToolValidationPipe } from '@toolshield/nest/internal';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Bench } from 'tinybench';
import { BareTools, bareNestCall, LookupDto, lookupBody, type LookupArgs } from './fixtures.js';
import { max, median, min, ratio, us } from './stats.js';

const BATCH = Number(process.env.BENCH_BATCH ?? 50);
const ROUNDS = Number(process.env.BENCH_DTO_ROUNDS ?? process.env.BENCH_ROUNDS ?? 9);
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 500);

class GeoPoint {
  @IsInt() @Min(-90) @Max(90) lat!: number;
  @IsInt() @Min(-180) @Max(180) lon!: number;
}

/** A DTO of the common shape: strings, numbers with bounds, an enum, optional and nested parts. */
class SearchDto {
  @IsString() @Length(2, 80) city!: string;
  @IsOptional() @IsIn(['metric', 'imperial']) units?: string;
  @IsInt() @Min(1) @Max(10) days!: number;
  @ValidateNested() @Type(() => GeoPoint) near!: GeoPoint;
  @IsOptional()
  @ValidateNested({ each: true })
  @ArrayMaxSize(5)
  @Type(() => GeoPoint)
  avoid?: GeoPoint[];
}

@Injectable()
class DtoBenchTools {
  @Tool({ name: 'lookup', description: 'Benchmark tool without a DTO.' })
  async lookup(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({ name: 'lookup_dto', description: 'Benchmark tool with a one-property DTO.' })
  async lookupDto(@ToolArgs() args: LookupDto, @ToolCall() _call: ToolCallContext) {
    if (!(args instanceof LookupDto)) throw new Error('The arguments were not transformed');
    return lookupBody(args);
  }

  @Tool({ name: 'search_dto', description: 'Benchmark tool with a nested DTO.' })
  async searchDto(@ToolArgs() args: SearchDto, @ToolCall() _call: ToolCallContext) {
    if (!(args.near instanceof GeoPoint)) throw new Error('The nested DTO was not transformed');
    return lookupBody(args);
  }
}

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [DtoBenchTools, BareTools] })
class DtoBenchModule {}

/** class-validator's path of the pipe: a subclass never takes the compiled path. */
class ClassValidatorPathPipe extends ToolValidationPipe {}

export interface DtoRow {
  readonly id: string;
  readonly label: string;
  readonly p50: number;
  readonly p50Min: number;
  readonly p50Max: number;
  /** Median over rounds of (this row / bare Nest call) in the same round. */
  readonly vsNest: number;
}

export interface DtoValidationReport {
  readonly rounds: number;
  readonly rows: DtoRow[];
  readonly table: string;
}

const request = (name: string, args: unknown): ToolCallRequest => ({
  id: 'call_bench',
  name,
  arguments: JSON.stringify(args),
});

/** Fails the bench unless the outcome is what the row says. */
function expectOutcome(outcome: ToolOutcome, success: boolean, id: string): void {
  const failure = outcome.success ? undefined : outcome;
  const ok = success
    ? outcome.success
    : failure?.errorType === 'invalid_input' && (failure.issues?.length ?? 0) > 0;
  if (!ok) throw new Error(`${id}: unexpected outcome ${JSON.stringify(outcome)}`);
}

/** The bench application; with `classValidatorPath`, its pipe is a subclass (validation as before). */
async function startApp(classValidatorPath: boolean): Promise<INestApplicationContext> {
  const builder = Test.createTestingModule({ imports: [DtoBenchModule] }).setLogger(
    new ConsoleLogger({ logLevels: [] }),
  );
  if (classValidatorPath)
    builder.overrideProvider(ToolValidationPipe).useClass(ClassValidatorPathPipe);
  const app = await builder.compile();
  await app.init();
  return app;
}

function rowsOf(app: INestApplicationContext, before: INestApplicationContext) {
  const executor = app.get(ToolExecutor);
  const classValidator = before.get(ToolExecutor);
  const bareCall = bareNestCall(app);
  const call = { callId: 'call_bench', toolName: 'lookup', attempt: 1, metadata: {} };
  const city = { city: 'Paris' };
  const search = {
    city: 'Paris',
    units: 'metric',
    days: 3,
    near: { lat: 48, lon: 2 },
    avoid: [{ lat: 50, lon: 3 }],
  };
  const compiledPipe = new ToolValidationPipe();
  const classValidatorPipe = new ClassValidatorPathPipe();
  const body = { type: 'body' as const, metatype: LookupDto };
  const plainCall = request('lookup', city);
  const dtoCall = request('lookup_dto', city);
  const nestedCall = request('search_dto', search);
  const invalidCall = request('lookup_dto', { city: 5 });
  return [
    {
      id: 'nest',
      label: 'bare Nest ExternalContextCreator + 1 pass-through interceptor (b)',
      once: () => bareCall(city, call),
    },
    {
      id: 'plain',
      label: 'toolshield execute, default tool, no DTO',
      success: true,
      once: () => executor.execute(plainCall),
    },
    {
      id: 'dto',
      label: 'toolshield execute, DTO tool (1 property), success',
      success: true,
      once: () => executor.execute(dtoCall),
    },
    {
      id: 'dto-class-validator',
      label: "same DTO tool, success, class-validator's path (as before)",
      success: true,
      once: () => classValidator.execute(dtoCall),
    },
    {
      id: 'dto-nested',
      label: 'toolshield execute, DTO tool (5 properties, nested, array), success',
      success: true,
      once: () => executor.execute(nestedCall),
    },
    {
      id: 'dto-nested-class-validator',
      label: "same nested DTO tool, success, class-validator's path (as before)",
      success: true,
      once: () => classValidator.execute(nestedCall),
    },
    {
      id: 'dto-invalid',
      label: 'toolshield execute, DTO tool (1 property), invalid_input',
      success: false,
      once: () => executor.execute(invalidCall),
    },
    {
      id: 'pipe-compiled',
      label: 'ToolValidationPipe.transform alone, 1-property DTO, compiled path',
      once: () => compiledPipe.transform(city, body),
    },
    {
      id: 'pipe-class-validator',
      label: "ToolValidationPipe.transform alone, 1-property DTO, class-validator's path",
      once: () => classValidatorPipe.transform(city, body),
    },
  ];
}

export async function runDtoValidationBench(
  log: (line: string) => void,
): Promise<DtoValidationReport> {
  const app = await startApp(false);
  const before = await startApp(true);
  const rows = rowsOf(app, before);
  for (const row of rows) {
    const value = await row.once();
    if (row.success !== undefined) expectOutcome(value as ToolOutcome, row.success, row.id);
  }
  const perRound = new Map<string, number[]>(rows.map((row) => [row.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: TIME_MS, warmupTime: 200, iterations: 50, throws: true });
    for (let i = 0; i < rows.length; i++) {
      const { id, once } = rows[(i + round) % rows.length];
      bench.add(id, async () => {
        for (let n = 0; n < BATCH; n++) await once();
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      perRound.get(task.name)?.push((result.latency.p50 * 1000) / BATCH);
    }
    log(
      `dto round ${round + 1}/${ROUNDS}: ${rows.map((row) => `${row.id} ${us(perRound.get(row.id)?.[round] ?? Number.NaN)}`).join(', ')}`,
    );
  }
  await app.close();
  await before.close();
  const nest = perRound.get('nest') ?? [];
  const results = rows.map(({ id, label }): DtoRow => {
    const values = perRound.get(id) ?? [];
    return {
      id,
      label,
      p50: median(values),
      p50Min: min(values),
      p50Max: max(values),
      vsNest: median(values.map((value, i) => value / nest[i])),
    };
  });
  const dto = results.find((row) => row.id === 'dto');
  // each row's fastest round against the bare call's: the least disturbed by other work
  const best = (dto?.p50Min ?? Number.NaN) / min(nest);
  const table = [
    `DTO tools (${ROUNDS} rounds × ${TIME_MS} ms per row, ${BATCH} calls per sample):`,
    '',
    '| Row | median µs/call | spread of round medians | × bare Nest |',
    '|---|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} | ${ratio(row.vsNest)} |`,
    ),
    '',
    `Target (issue 14): DTO tool, success ≤ 1.50× the bare Nest call: ${ratio(dto?.vsNest ?? Number.NaN)} (${(dto?.vsNest ?? Infinity) <= 1.5 ? 'met' : 'NOT met'}); fastest rounds: ${ratio(best)}`,
  ].join('\n');
  return { rounds: ROUNDS, rows: results, table };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runDtoValidationBench((line) => void process.stderr.write(`${line}\n`));
  process.stdout.write(`${report.table}\n`);
}
