import { describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool, ToolShieldModule } from '@toolshield/nest';
import { McpToolServer, ToolShieldMcpModule } from '../../src/index.js';

@Injectable()
class EchoTools {
  @Tool({ description: 'Echoes.', inputSchema: { type: 'object' } })
  echo() {
    return 'echo';
  }
}

@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldMcpModule.forRoot()],
  providers: [EchoTools],
})
class CliModule {}

describe('ToolShieldMcpModule in an application context (no HTTP server)', () => {
  it('starts without mounting the HTTP endpoint, and still serves the tools', async () => {
    const app = await NestFactory.createApplicationContext(CliModule, {
      logger: false,
      abortOnError: false,
    });
    expect(app.get(McpToolServer)).toBeDefined();
    await app.close();
  });
});
