import { Module } from '@nestjs/common';
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

/** The sample agent's tools on toolshield: what the demo, the service and the chaos run share. */
@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true })],
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
})
export class AppModule {}
