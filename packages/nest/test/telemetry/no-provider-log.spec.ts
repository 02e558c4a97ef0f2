import { afterEach, describe, expect, it } from '@jest/globals';
import { Logger, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ToolShieldModule } from '../../src/index.js';
import { ToolShieldTelemetryModule } from '../../src/telemetry/index.js';
import { FakeMeterProvider } from './fake-otel.js';

/** A logger that keeps every line it is given. */
function recordingLogger() {
  const lines: { level: string; message: string; context?: string }[] = [];
  const at =
    (level: string) =>
    (message: unknown, context?: string): void => {
      lines.push({ level, message: String(message), context });
    };
  const logger: LoggerService = {
    log: at('log'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    verbose: at('verbose'),
  };
  return { logger, lines };
}

async function start(telemetry: Parameters<typeof ToolShieldTelemetryModule.forRoot>[0]) {
  const { logger, lines } = recordingLogger();
  const moduleRef = await Test.createTestingModule({
    imports: [
      ToolShieldModule.forRoot({ isGlobal: true }),
      ToolShieldTelemetryModule.forRoot(telemetry),
    ],
  }).compile();
  moduleRef.useLogger(logger);
  await moduleRef.init();
  return {
    moduleRef,
    telemetryLines: lines.filter((line) => line.context === 'ToolShieldTelemetry'),
  };
}

describe('ToolShieldTelemetryModule without an OpenTelemetry provider', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    Logger.overrideLogger(false);
  });

  it('says so in one line at bootstrap', async () => {
    const { moduleRef, telemetryLines } = await start({});
    close = () => moduleRef.close();
    expect(telemetryLines).toEqual([
      {
        level: 'warn',
        context: 'ToolShieldTelemetry',
        message:
          'No OpenTelemetry tracer or meter provider is registered, so tool calls are not recorded: start the OpenTelemetry SDK before creating the application, or pass ToolShieldTelemetryModule.forRoot({ tracerProvider, meterProvider }).',
      },
    ]);
  });

  it('says nothing when a provider is given', async () => {
    const { moduleRef, telemetryLines } = await start({ meterProvider: new FakeMeterProvider() });
    close = () => moduleRef.close();
    expect(telemetryLines).toEqual([]);
  });
});
