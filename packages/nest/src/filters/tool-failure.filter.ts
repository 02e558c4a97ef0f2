import { Catch, Injectable, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { toolCallState } from '../execution/tool-call-state.js';
import { ToolFailureEnvelope } from '../execution/tool-failure-envelope.js';
import { ToolFailureFactory, effectFacts } from '../execution/tool-failure.factory.js';
import type { ToolCallContext } from '@toolshield/core';

/**
 * The last line of every tool's pipeline: whatever escaped the guards, interceptors, pipes
 * and the method becomes a `ToolFailure`, returned as a plain value (never rethrown).
 * Your own `@UseFilters()` on the tool's method or class take precedence.
 *
 * @publicApi
 */
@Catch()
@Injectable()
export class ToolFailureFilter implements ExceptionFilter {
  constructor(private readonly failures: ToolFailureFactory) {}

  catch(exception: unknown, host: ArgumentsHost): ToolFailureEnvelope {
    const call = host.getArgByIndex<ToolCallContext>(1);
    const state = toolCallState(call);
    return new ToolFailureEnvelope(
      this.failures.fromError(exception, {
        tool: call?.toolName ?? 'unknown',
        callId: call?.callId ?? 'unknown',
        attempts: call?.attempt ?? 1,
        retryMax: state?.retryMax ?? 0,
        retriesWithheld: state?.retriesWithheld,
        startedAt: state?.startedAt ?? Number.NaN,
        ...effectFacts(call, state),
      }),
    );
  }
}
