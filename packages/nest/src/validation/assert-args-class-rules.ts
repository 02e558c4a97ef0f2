import { getMetadataStorage } from 'class-validator';
import { isDtoClass } from '../decorators/tool-params.decorator.js';
import { ARGS_CLASS_WITHOUT_RULES } from '../toolshield.messages.js';
import { ToolValidationPipe } from './tool-validation.pipe.js';

/**
 * Refuses, at startup, a tool whose arguments class the default validation would check but
 * which has no class-validator decorator (its own or inherited): class-validator refuses every
 * instance of such a class (`unknownValue`), so every call would fail. Tools with pipes of
 * their own are left alone.
 *
 * @internal
 */
export function assertArgsClassHasRules(
  tool: string,
  argsType: unknown,
  pipes: readonly unknown[],
): void {
  if (!isDtoClass(argsType)) return;
  if (!pipes.some((pipe) => pipe === ToolValidationPipe || pipe instanceof ToolValidationPipe)) {
    return;
  }
  const rules = getMetadataStorage().getTargetValidationMetadatas(
    argsType,
    undefined as unknown as string,
    false,
    false,
  );
  if (rules.length === 0) throw new Error(ARGS_CLASS_WITHOUT_RULES(tool, argsType.name));
}
