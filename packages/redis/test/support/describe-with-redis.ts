import { describe, it } from '@jest/globals';
import { redisServerAvailable } from '../../src/testing/index.js';

/**
 * Runs the suite against a real redis-server; on a developer's machine without one it is
 * skipped, saying why. In CI (`CI=true`) a missing server fails instead: a skip there would
 * hide a broken install step.
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (!redisServerAvailable && process.env['CI'] === 'true') {
    throw new Error(
      'CI=true but redis-server is not on PATH: .ci/redis.sh should have installed it',
    );
  }
  if (redisServerAvailable) {
    describe(name, body);
  } else {
    describe(name, () => {
      it.skip('needs redis-server on PATH (apt-get install redis-server; .ci/run installs it)', () =>
        undefined);
    });
  }
}
