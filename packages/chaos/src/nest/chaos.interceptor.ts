import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { currentToolCall } from '@toolshield/nest';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { injectChaos } from '../runtime/inject-chaos.js';
import { ChaosService } from './chaos.service.js';

/**
 * The innermost interceptor of every tool (`ChaosModule` puts it between toolshield's
 * policies and the method): each attempt goes through `injectChaos`, so retries, breakers
 * and timeouts meet injected faults exactly as they would meet real ones. While chaos is
 * disabled it passes the call straight on.
 *
 * @publicApi
 */
@Injectable()
export class ChaosInterceptor implements NestInterceptor {
  constructor(private readonly chaos: ChaosService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const controller = this.chaos.controller;
    if (!controller.enabled) return next.handle();
    // A hedged tool's attempts run at once: each gets its faults with its own signal.
    const call = currentToolCall(context);
    return from(
      injectChaos(controller, call.toolName, call, () =>
        lastValueFrom(next.handle(), { defaultValue: undefined }),
      ),
    );
  }
}
