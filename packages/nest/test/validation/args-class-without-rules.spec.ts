import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, type OnModuleInit, type PipeTransform } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Tool, ToolArgs, ToolRegistrar } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/** An arguments class without a single class-validator decorator. */
class BareArgs {
  city!: string;
}

class CheckedArgs {
  @IsString() city!: string;
}

@Injectable()
class BareTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.' })
  getWeather(@ToolArgs() args: BareArgs) {
    return `Sunny in ${args.city}`;
  }
}

@Injectable()
class RegisteredBareTools implements OnModuleInit {
  constructor(private readonly tools: ToolRegistrar) {}

  onModuleInit() {
    this.tools.register({
      name: 'get_weather',
      description: 'Current weather for a city.',
      argsType: BareArgs,
      handler: (args) => `Sunny in ${args.city}`,
    });
  }
}

class PassThroughPipe implements PipeTransform {
  transform(value: unknown) {
    return value;
  }
}

@Injectable()
class OwnPipeTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.' })
  getWeather(@ToolArgs(PassThroughPipe) args: BareArgs) {
    return `Sunny in ${args.city}`;
  }
}

@Injectable()
class CheckedTools {
  @Tool({ name: 'get_weather', description: 'Current weather for a city.' })
  getWeather(@ToolArgs() args: CheckedArgs) {
    return `Sunny in ${args.city}`;
  }
}

const REFUSAL =
  'Tool "get_weather": its arguments class BareArgs has no class-validator decorator, so every call would fail validation. Decorate its properties (@IsString(), @IsOptional(), ...), or type the arguments as an interface to take them unchecked.';

describe('an arguments class without class-validator rules', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('is refused at startup with one line naming the tool and the class', async () => {
    await expect(createToolApp([BareTools])).rejects.toThrow(REFUSAL);
  });

  it('is refused for a tool registered in code too', async () => {
    await expect(createToolApp([RegisteredBareTools])).rejects.toThrow(REFUSAL);
  });

  it('is accepted when the tool validates with pipes of its own', async () => {
    const ctx = await createToolApp([OwnPipeTools]);
    close = ctx.close;
    await expect(
      ctx.executor.execute({ name: 'get_weather', arguments: { city: 'Oslo' } }),
    ).resolves.toMatchObject({ success: true, output: 'Sunny in Oslo' });
  });

  it('is not in the way of a decorated class', async () => {
    const ctx = await createToolApp([CheckedTools]);
    close = ctx.close;
    await expect(
      ctx.executor.execute({ name: 'get_weather', arguments: { city: 'Oslo' } }),
    ).resolves.toMatchObject({ success: true, output: 'Sunny in Oslo' });
  });
});
