import {
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { API_SECURITY_OPTIONS, type ApiSecurityOptions } from './api-security.options.js';
import { ApiTokenGuard } from './api-token.guard.js';
import { JsonOnlyMiddleware } from './json-only.middleware.js';
import { SameSiteMiddleware } from './same-site.middleware.js';

/**
 * The API's defences against other sites: `Host` and `Origin` checks and JSON-only bodies on
 * `/api`, and the optional bearer token on every route (a global guard, so MCP too).
 */
@Module({})
export class ApiSecurityModule implements NestModule {
  static forRoot(options: ApiSecurityOptions): DynamicModule {
    return {
      module: ApiSecurityModule,
      providers: [
        { provide: API_SECURITY_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: ApiTokenGuard },
        SameSiteMiddleware,
        JsonOnlyMiddleware,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(SameSiteMiddleware, JsonOnlyMiddleware).forRoutes('api/*path');
  }
}
