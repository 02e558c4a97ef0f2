/**
 * Everything @toolshield/nest holds, for toolshield's own packages (`@toolshield/nest/internal`):
 * the public entry and the pieces other packages build on (discovery, the error classifier, the
 * failure filter, the validation pipe, option checks of a module). Not a supported API: it has
 * no API report and changes in any release.
 *
 * @packageDocumentation
 */
export * from './index.js';
export { ToolErrorClassifier } from './execution/tool-error-classifier.js';
export {
  providerMethods,
  toolNameOf,
  toolOptionsOf,
  type ProviderMethod,
} from './discovery/provider-methods.js';
export { ToolFailureFilter } from './filters/tool-failure.filter.js';
export { ToolValidationPipe } from './validation/tool-validation.pipe.js';
export { checkingModuleOptions } from './options/validate-module-options.js';
