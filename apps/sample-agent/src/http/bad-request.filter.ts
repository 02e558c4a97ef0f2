import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { InvalidOptionsError } from '@toolshield/core';
import { InvalidChaosRuleError } from '../chaos/chaos-rule-errors.js';
import { InvalidApprovalRequestError, InvalidRunRequestError } from '../runs/run-errors.js';

/**
 * The app's own input errors as `400 { statusCode, error, message }`, and the options a
 * package refused on a client's behalf (`InvalidOptionsError` names the option).
 */
@Catch(
  InvalidRunRequestError,
  InvalidApprovalRequestError,
  InvalidChaosRuleError,
  InvalidOptionsError,
)
export class BadRequestFilter implements ExceptionFilter {
  catch(error: Error, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    response.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ statusCode: 400, error: 'Bad Request', message: error.message }));
  }
}
