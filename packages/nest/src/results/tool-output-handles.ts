import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@toolshield/core';
import { OutputHandleStore } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * Where cut outputs are kept whole for the read-more tool: a store when the module's
 * `readMoreTool` is on, none otherwise (cut outputs are then not kept). @internal
 */
@Injectable()
export class ToolOutputHandles {
  readonly store: OutputHandleStore | undefined;

  constructor(
    @Inject(TOOLSHIELD_CLOCK) clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    const readMore = options.readMoreTool;
    this.store = readMore
      ? new OutputHandleStore({ ...(readMore === true ? {} : readMore), clock })
      : undefined;
  }
}
