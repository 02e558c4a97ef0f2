import { Inject, Injectable } from '@nestjs/common';
import { type Clock, type ToolCallContext } from '@toolshield/core';
import { ApprovalStore, type ApprovalRecord } from '@toolshield/core/approvals';
import { approvalError } from '@toolshield/core/internal';
import { randomUUID } from 'node:crypto';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import { ToolFailureFactory } from '../execution/tool-failure.factory.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import { gatedParams } from './approval-call-param.js';
import {
  DEFAULT_APPROVAL_TTL_MS,
  type ApprovedCall,
  type NeedsApproval,
} from './tool-approval-options.interface.js';

type Method = (...params: unknown[]) => unknown;

/** What the gate knows of a call of a tool that may need approval. */
interface GatedCall {
  readonly conversationId: string | undefined;
  /** A person approved it already: it runs without asking. */
  readonly approved: boolean;
  /** The arguments as passed, for methods that declare none. */
  readonly rawArgs: unknown;
  /** The gate let it through once (a retry does not ask again). */
  cleared: boolean;
}

/** What the gate needs of a tool's declaration. */
interface GatedToolSpec {
  readonly name: string;
  readonly options: { readonly needsApproval?: NeedsApproval<never> };
  readonly instance: object;
  readonly methodName: string;
}

/** Whether a tool's calls may need approval (`needsApproval` set, and not `false`). @publicApi */
export function mayNeedApproval(tool: Pick<RegisteredTool, 'options'>): boolean {
  const policy = tool.options.needsApproval;
  return policy !== undefined && policy !== false;
}

/**
 * The approval gate in front of tools with `needsApproval`: it sits between Nest's pipes and
 * the method, so the arguments it decides on (and stores) are validated, and it runs once per
 * call however many attempts follow. A call that needs approval does not run: the gate stores
 * an approval request, reports `approval.requested`, and ends the call in an
 * `approval_pending` failure (not retried, neutral for the breaker). Tools without
 * `needsApproval` are not wrapped at all.
 *
 * @internal
 */
@Injectable()
export class ToolApprovalGate {
  private readonly calls = new WeakMap<object, GatedCall>();
  private readonly ttlMs: number;

  constructor(
    @Inject(ApprovalStore) private readonly store: ApprovalStore,
    private readonly events: ToolEventBus,
    private readonly failures: ToolFailureFactory,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.ttlMs = options.approvals?.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
  }

  /** Runs the tool's pipeline for `call`, telling the gate what it needs when the tool has one. */
  invoke(
    tool: RegisteredTool,
    args: unknown,
    call: ToolCallContext,
    options: { readonly conversationId?: string; readonly approved?: ApprovedCall },
  ): Promise<unknown> {
    if (mayNeedApproval(tool)) {
      this.calls.set(call, {
        conversationId: options.conversationId,
        approved: options.approved !== undefined,
        rawArgs: args,
        cleared: false,
      });
    }
    return tool.invoke(args, call);
  }

  /** The method Nest runs for the tool: `method` itself, or `method` behind the gate. */
  gate(spec: GatedToolSpec, method: Method): Method {
    const policy = spec.options.needsApproval;
    if (policy === undefined || policy === false) return method;
    const where = gatedParams(spec.instance.constructor, spec.methodName);
    const calls = this.calls;
    const check = (args: unknown, call: ToolCallContext, own: GatedCall) =>
      this.check(spec.name, policy, args, call, own);
    const gated = function gatedTool(this: unknown, ...params: unknown[]): unknown {
      const call = params[where.userParams] as ToolCallContext & { readonly of?: ToolCallContext };
      const own = calls.get(call.of ?? call);
      const run = () => method.apply(this, params.slice(0, where.userParams));
      if (own === undefined) throw new Error(`toolshield: ${spec.name} ran outside its gate`);
      if (own.approved || own.cleared) return run();
      const args = where.argsIndex === undefined ? own.rawArgs : params[where.argsIndex];
      return check(args, call, own).then(run);
    };
    for (const key of Reflect.getMetadataKeys(method)) {
      Reflect.defineMetadata(key, Reflect.getMetadata(key, method), gated);
    }
    Object.defineProperty(gated, 'name', { value: method.name });
    return gated;
  }

  /** Lets the call through, or stores its approval request and throws `approval_pending`. */
  private async check(
    tool: string,
    policy: NeedsApproval<never>,
    args: unknown,
    call: ToolCallContext,
    own: GatedCall,
  ): Promise<void> {
    const needed =
      policy === true || (typeof policy === 'function' && (await policy(args as never, call)));
    if (!needed) {
      own.cleared = true;
      return;
    }
    const record = this.requestFor(tool, plainArgs(args), call, own.conversationId);
    await this.store.create(record);
    this.events.emit({
      type: 'approval.requested',
      at: record.requestedAt,
      callId: record.callId,
      tool,
      approvalId: record.id,
      ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }),
      approval: {
        id: record.id,
        expiresAt: record.expiresAt,
        args: record.shownArgs,
        idempotencyKey: record.idempotencyKey,
      },
    });
    throw approvalError('pending', record);
  }

  private requestFor(
    tool: string,
    args: unknown,
    call: ToolCallContext,
    conversationId: string | undefined,
  ): ApprovalRecord {
    const requestedAt = this.clock.now();
    const metadata = Object.keys(call.metadata).length > 0 ? { ...call.metadata } : undefined;
    return {
      id: `appr_${randomUUID()}`,
      tool,
      callId: call.callId,
      args,
      shownArgs: this.failures.sanitizer.value(args),
      idempotencyKey: call.idempotencyKey ?? `${conversationId ?? randomUUID()}:${call.callId}`,
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(metadata === undefined ? {} : { metadata }),
      requestedAt,
      expiresAt: requestedAt + this.ttlMs,
      status: 'pending',
    };
  }
}

/** The validated arguments as plain JSON (a DTO instance loses its class), to store and run again. */
function plainArgs(args: unknown): unknown {
  return args === undefined ? undefined : JSON.parse(JSON.stringify(args));
}
