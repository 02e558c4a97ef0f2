import { afterEach, describe, expect, it } from '@jest/globals';
import {
  Injectable,
  Logger,
  Module,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolShieldModule } from '@toolshield/nest';
import type { AddressInfo } from 'node:net';
import { ToolShieldMcpModule, type ToolShieldMcpModuleOptions } from '../../src/index.js';
import { startMcpApp } from '../fixtures/mcp-app.js';
import { rawInitialize, rawRequest } from '../fixtures/raw-request.js';
import { WeatherTools } from '../fixtures/weather.tools.js';

const TOKEN = 'spec-token-7c1f';

/** The bearer check a user already has: 401 without the token. */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string> }>();
    if (headers['authorization'] !== `Bearer ${TOKEN}`) throw new UnauthorizedException();
    return true;
  }
}

let app: INestApplication | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await app?.close();
  app = undefined;
});

async function connect(url: URL, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

describe('the Streamable HTTP endpoint refuses other sites by default', () => {
  it('answers the official client on the address it listens on', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    const client = await connect(url);
    expect((await client.listTools()).tools).toHaveLength(3);
    const localhost = new URL(url);
    localhost.hostname = 'localhost';
    expect((await rawInitialize(url, { host: localhost.host })).status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) with 403 and opens no session', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    const response = await rawInitialize(url, { host: 'evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(response.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining('evil.example') },
    });
  });

  it('refuses a foreign Origin with 403, and an origin on another port of the same host', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools]));
    expect((await rawInitialize(url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await rawInitialize(url, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await rawInitialize(url, { origin: 'null' })).status).toBe(403);
    expect((await rawInitialize(url, { origin: url.origin })).status).toBe(200);
  });

  it('opens up to the hosts and origins listed', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], {
      http: {
        allowedHosts: ['mcp.example.com'],
        allowedOrigins: ['https://app.example.com'],
      },
    }));
    expect(
      (await rawInitialize(url, { host: 'mcp.example.com', origin: 'https://app.example.com' }))
        .status,
    ).toBe(200);
    expect((await rawInitialize(url, { host: 'mcp.example.com:8443' })).status).toBe(200);
    expect((await rawInitialize(url, { host: 'evil.example' })).status).toBe(403);
    expect((await rawInitialize(url, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses to start on a wildcard address without a list of hosts, naming the option', async () => {
    @Module({
      imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldMcpModule.forRoot()],
      providers: [WeatherTools],
    })
    class OpenModule {}
    Logger.overrideLogger(false);
    app = await NestFactory.create(OpenModule, { logger: false });
    const server = app.getHttpServer() as { address(): AddressInfo | string | null };
    const real = server.address.bind(server);
    // The spec listens on 127.0.0.1 only; the server reports the wildcard address instead.
    server.address = () => {
      const address = real();
      return typeof address === 'object' && address ? { ...address, address: '0.0.0.0' } : address;
    };
    await expect(app.listen(0, '127.0.0.1')).rejects.toThrow(/0\.0\.0\.0.*http\.allowedHosts/);
  });

  it('answers any Host and Origin with the checks switched off (behind a proxy that makes them)', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], {
      http: { enableDnsRebindingProtection: false },
    }));
    const response = await rawInitialize(url, {
      host: 'mcp.example.com',
      origin: 'https://elsewhere.example',
    });
    expect(response.status).toBe(200);
  });

  it('refuses a bad path or guard when the module is registered, naming the option', () => {
    expect(() => ToolShieldMcpModule.forRoot({ path: 'mcp' })).toThrow(
      /ToolShieldMcpModule options: path must be false, or a path starting with '\/', got 'mcp'/,
    );
    expect(() =>
      ToolShieldMcpModule.forRoot({ guards: [{} as never] } as ToolShieldMcpModuleOptions),
    ).toThrow(/guards\[0\]/);
  });

  it('checks its options at startup', async () => {
    await expect(
      startMcpApp([WeatherTools], {
        http: { allowedHosts: [''], allowedOrigins: ['app.example.com'] },
      } as ToolShieldMcpModuleOptions),
    ).rejects.toThrow(/http\.allowedHosts\[0\].*http\.allowedOrigins\[0\]/);
  });
});

describe('the Streamable HTTP endpoint runs through Nest guards', () => {
  const secured: ToolShieldMcpModuleOptions = {
    guards: [BearerGuard],
    http: { protectedResource: { authorizationServers: ['https://auth.example.com'] } },
  };

  it('answers 401 without a token, pointing at the protected resource metadata', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], secured));
    const response = await rawInitialize(url);
    expect(response.status).toBe(401);
    const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await rawRequest(new URL(metadataUrl));
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toEqual({
      resource: url.href,
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
    });
    await expect(connect(url)).rejects.toMatchObject({ code: 401 });
  });

  it('serves the official client that sends the token', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], secured));
    const client = await connect(url, { authorization: `Bearer ${TOKEN}` });
    expect(
      await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } }),
    ).toMatchObject({ structuredContent: { city: 'Oslo', celsius: 21 } });
  });

  it('checks Host and Origin before any guard', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([WeatherTools], secured));
    expect((await rawInitialize(url, { host: 'evil.example' })).status).toBe(403);
  });

  it('takes its path and guards through forRootAsync too', async () => {
    @Module({
      imports: [
        ToolShieldModule.forRoot({ isGlobal: true }),
        ToolShieldMcpModule.forRootAsync({
          useFactory: async () => ({ serverInfo: { name: 'async', version: '1.0.0' } }),
          path: '/tools/mcp',
          guards: [BearerGuard],
        }),
      ],
      providers: [WeatherTools],
    })
    class AsyncModule {}
    Logger.overrideLogger(false);
    app = await NestFactory.create(AsyncModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const url = new URL(`http://127.0.0.1:${port}/tools/mcp`);
    expect((await rawInitialize(url)).status).toBe(401);
    const client = await connect(url, { authorization: `Bearer ${TOKEN}` });
    expect(client.getServerVersion()).toMatchObject({ name: 'async' });
  });

  it('is protected by a global guard (APP_GUARD) too', async () => {
    let url: URL;
    ({ app, url } = await startMcpApp([
      WeatherTools,
      { provide: APP_GUARD, useClass: BearerGuard },
    ]));
    expect((await rawInitialize(url)).status).toBe(401);
    expect((await rawInitialize(url, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});
