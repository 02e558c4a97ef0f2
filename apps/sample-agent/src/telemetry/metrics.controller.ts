import { Controller, Get, Req, Res } from '@nestjs/common';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** `GET /metrics`: the Prometheus text exposition of every metric, served by the app itself. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly exporter: PrometheusExporter) {}

  @Get()
  scrape(@Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    this.exporter.getMetricsRequestHandler(request, response);
  }
}
