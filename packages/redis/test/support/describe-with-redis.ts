import { describe, it } from '@jest/globals';
import { redisServerAvailable } from '../../src/testing/index.js';

/** Says why a suite is skipped on a machine without Redis. */
export function describeWithRedis(name: string, body: () => void): void {
  if (redisServerAvailable) {
    describe(name, body);
  } else {
    describe(name, () => {
      it.skip('needs redis-server on PATH (apt-get install redis-server; .ci/run installs it)', () =>
        undefined);
    });
  }
}
