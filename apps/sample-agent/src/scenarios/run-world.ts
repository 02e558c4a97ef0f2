import { KubeCluster } from '../tools/kube/kube-cluster.js';
import { NotesDirectory } from '../tools/notes-directory.js';
import { WebUpstream } from '../tools/web/web-upstream.js';
import type { ScenarioServices } from './scenario.js';

/**
 * Drops what the tools kept for one run alone, once it ended: its upstream plans, its notes
 * and its cluster.
 */
export async function releaseRunWorld(get: ScenarioServices, runId: string): Promise<void> {
  await Promise.all([
    get(WebUpstream).forgetRun(runId),
    get(NotesDirectory).forgetRun(runId),
    Promise.resolve(get(KubeCluster).forgetRun(runId)),
  ]);
}
