import { Module, type DynamicModule } from '@nestjs/common';
import type { ApprovalStore } from '@toolshield/core/approvals';
import { ToolShieldModule } from '@toolshield/nest';
import { CalculatorTools } from './tools/calculator.tools.js';
import { CompletionTools } from './tools/completion.tools.js';
import { ConversationTools } from './tools/conversation.tools.js';
import { ExchangeRateTools } from './tools/exchange-rate.tools.js';
import { FileSandbox } from './tools/files/file-sandbox.js';
import { FileTools } from './tools/files/file.tools.js';
import { KubeCluster } from './tools/kube/kube-cluster.js';
import { KubeTools } from './tools/kube/kube.tools.js';
import { NotesDirectory } from './tools/notes-directory.js';
import { NotesTools } from './tools/notes.tools.js';
import { WaitTools } from './tools/wait.tools.js';
import { PaymentTools } from './tools/payments.tools.js';
import { WeatherTools } from './tools/weather.tools.js';
import { NewsTools } from './tools/web/news.tools.js';
import { WebUpstream } from './tools/web/web-upstream.js';
import { WebTools } from './tools/web/web.tools.js';

/** The tools' providers, and what the rest of the app uses of them. */
const TOOLS = {
  providers: [
    WeatherTools,
    ExchangeRateTools,
    NotesDirectory,
    NotesTools,
    CompletionTools,
    WebUpstream,
    WebTools,
    NewsTools,
    WaitTools,
    KubeCluster,
    KubeTools,
    FileSandbox,
    FileTools,
    CalculatorTools,
    ConversationTools,
    PaymentTools,
  ],
  exports: [WebUpstream, KubeCluster, FileSandbox],
};

/** What the service sets on toolshield: where approvals wait, and for how long. */
export interface AppToolOptions {
  readonly approvals: { readonly store: ApprovalStore; readonly ttlMs: number };
}

/** The sample agent's tools on toolshield: what the demo, the service and the chaos run share. */
@Module({ imports: [ToolShieldModule.forRoot({ isGlobal: true })], ...TOOLS })
export class AppModule {
  /** The same tools, their approvals kept in `options.approvals.store` (the run database). */
  static forRoot(options: AppToolOptions): DynamicModule {
    return {
      module: ConfiguredAppModule,
      imports: [ToolShieldModule.forRoot({ isGlobal: true, approvals: options.approvals })],
      ...TOOLS,
    };
  }
}

/** {@link AppModule.forRoot}'s module: the tools with the service's options. */
@Module({})
class ConfiguredAppModule {}
