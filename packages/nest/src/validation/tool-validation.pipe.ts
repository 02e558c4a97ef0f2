import { Injectable, ValidationPipe } from '@nestjs/common';
import { classifyError } from '@toolshield/core';

/**
 * The default pipe of `@ToolArgs()`: validates and transforms the arguments into the DTO
 * class. Unknown properties are refused (a model that invents fields learns which exist),
 * and failures become `InvalidInputError` with one issue per field. Values are not echoed
 * back, so a secret the model pasted into the wrong field does not travel further.
 *
 * @publicApi
 */
@Injectable()
export class ToolValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => classifyError(errors),
    });
  }
}
