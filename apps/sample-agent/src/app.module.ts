import { Module } from '@nestjs/common';
import { ToolShieldModule } from '@toolshield/nest';
import { CompletionTools } from './tools/completion.tools.js';
import { ExchangeRateTools } from './tools/exchange-rate.tools.js';
import { NotesDirectory } from './tools/notes-directory.js';
import { NotesTools } from './tools/notes.tools.js';
import { WeatherTools } from './tools/weather.tools.js';

/** The sample agent's root module: toolshield and the agent's tools. */
@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true })],
  providers: [WeatherTools, ExchangeRateTools, NotesDirectory, NotesTools, CompletionTools],
})
export class AppModule {}
