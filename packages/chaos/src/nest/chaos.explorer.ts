import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef, Reflector } from '@nestjs/core';
import { assertOptions, listOf } from '@toolshield/core/internal';
import { ToolExecutor, ToolPipeline } from '@toolshield/nest';
import { providerMethods, toolNameOf } from '@toolshield/nest/internal';
import type { ChaosRule } from '../selection/chaos-rule.js';
import { CHAOS_RULE_RULE } from '../options/chaos-rule.rule.js';
import { CHAOS_RULES_METADATA } from './chaos.constants.js';
import { ChaosInterceptor } from './chaos.interceptor.js';
import { ChaosService } from './chaos.service.js';

/**
 * Wires chaos into the application before the tools' pipelines are built: puts the
 * {@link ChaosInterceptor} innermost, registers every `@Chaos()` rule for its tool, and
 * forwards each injection to `ToolExecutor.events$`. Creating the controller here also makes
 * an app with chaos enabled refuse to start in production unless allowed.
 *
 * @internal
 */
@Injectable()
export class ChaosExplorer implements OnModuleInit {
  constructor(
    private readonly chaos: ChaosService,
    private readonly interceptor: ChaosInterceptor,
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const controller = this.chaos.controller;
    this.resolve(ToolPipeline).useInnermost(this.interceptor);
    const executor = this.resolve(ToolExecutor);
    controller.onInjected((event) => executor.reportChaosInjection(event));
    for (const rule of this.decoratedRules()) controller.addRule(rule);
  }

  private resolve<T>(token: new (...args: never[]) => T): T {
    try {
      return this.moduleRef.get(token, { strict: false });
    } catch {
      throw new Error(
        `ChaosModule needs ToolShieldModule: import ToolShieldModule.forRoot() in the same application (${token.name} not found).`,
      );
    }
  }

  /** The `@Chaos()` rules of every provider method, scoped to the method's tool. */
  private decoratedRules(): ChaosRule[] {
    const rules: ChaosRule[] = [];
    for (const { method, methodName } of providerMethods(this.discovery, this.scanner)) {
      const own = this.reflector.get<ChaosRule[] | undefined>(CHAOS_RULES_METADATA, method);
      if (!own) continue;
      const tool = toolNameOf(method, methodName) ?? methodName;
      assertOptions(listOf(CHAOS_RULE_RULE), own, 'chaos rules', `@Chaos(${tool})`);
      own.forEach((rule, index) =>
        rules.push({ ...rule, name: rule.name ?? `${tool}#${index + 1}`, tools: tool }),
      );
    }
    return rules;
  }
}
