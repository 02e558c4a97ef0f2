import { Inject } from '@nestjs/common';
import { TOOLSHIELD_MODULE_OPTIONS } from '../toolshield.module-definition.js';

/** The injection token of the module options. @publicApi */
export const getToolShieldOptionsToken = (): string | symbol => TOOLSHIELD_MODULE_OPTIONS;

/**
 * Injects the `ToolShieldModule` options.
 *
 * @example
 * ```ts
 * constructor(@InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions) {}
 * ```
 * @publicApi
 */
export const InjectToolShieldOptions = (): ParameterDecorator & PropertyDecorator =>
  Inject(TOOLSHIELD_MODULE_OPTIONS);
