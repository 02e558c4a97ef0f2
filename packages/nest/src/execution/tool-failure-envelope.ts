import type { ToolFailure } from '@toolshield/core';

/**
 * Wraps the failure the filter produced, so the executor can tell it from a tool's own
 * return value (which may be any object, even one that looks like a failure).
 */
export class ToolFailureEnvelope {
  constructor(readonly failure: ToolFailure) {}
}
