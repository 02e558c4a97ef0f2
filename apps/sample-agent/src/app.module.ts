import { Module } from '@nestjs/common';
import { ToolShieldModule } from '@toolshield/nest';
import { WeatherTools } from './tools/weather.tools.js';

/** The sample agent's root module. */
@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true })],
  providers: [WeatherTools],
})
export class AppModule {}
