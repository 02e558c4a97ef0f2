import { Injectable } from '@nestjs/common';
import { NotFoundError, PermissionDeniedError, ConflictError } from '@toolshield/nest';

/** A pod as `list_pods` reports it. */
export interface Pod {
  readonly name: string;
  readonly namespace: string;
  readonly image: string;
  readonly phase: 'Running' | 'Pending';
}

/** A verb on a resource, as Kubernetes RBAC writes it: `create deployments`. */
export type KubePermission = `${'list' | 'create'} ${'pods' | 'namespaces' | 'deployments'}`;

/** The service account the agent acts as. */
export const AGENT_ACCOUNT = 'system:serviceaccount:agents:toolshield-agent';

/** What the agent's service account may do: everything but deploying. */
const GRANTED: ReadonlySet<KubePermission> = new Set([
  'list pods',
  'list namespaces',
  'create namespaces',
]);

/**
 * A Kubernetes cluster simulated in memory: namespaces with pods, and the RBAC of the agent's
 * service account (it may list pods and create namespaces, not create deployments). Its
 * errors are toolshield's taxonomy, worded like the API server's: a missing namespace is
 * `not_found`, a forbidden verb `permission_denied` naming the missing permission.
 */
export class SimulatedCluster {
  private readonly namespaces = new Map<string, Pod[]>([
    ['default', []],
    [
      'kube-system',
      [
        {
          name: 'coredns-7db6d8ff4d-x2x7q',
          namespace: 'kube-system',
          image: 'coredns:1.11',
          phase: 'Running',
        },
      ],
    ],
  ]);

  /** The pods of `namespace`; `not_found` when it does not exist. */
  listPods(namespace: string): Pod[] {
    this.authorize('list pods', namespace);
    return [...this.pods(namespace)];
  }

  /** Creates `namespace`; `conflict` when it exists. */
  createNamespace(namespace: string): { readonly name: string; readonly status: 'Active' } {
    this.authorize('create namespaces', namespace);
    if (this.namespaces.has(namespace)) {
      throw new ConflictError(`namespaces "${namespace}" already exists`);
    }
    this.namespaces.set(namespace, []);
    return { name: namespace, status: 'Active' };
  }

  /** Deploys `image` as `name` into `namespace`; the agent's account is not allowed to. */
  deploy(namespace: string, name: string, image: string): Pod {
    this.authorize('create deployments', namespace);
    const pod: Pod = { name: `${name}-0`, namespace, image, phase: 'Pending' };
    this.pods(namespace).push(pod);
    return pod;
  }

  private pods(namespace: string): Pod[] {
    const pods = this.namespaces.get(namespace);
    if (!pods) {
      throw new NotFoundError(`namespaces "${namespace}" not found`, {
        metadata: { resource: 'namespaces', name: namespace },
      });
    }
    return pods;
  }

  private authorize(permission: KubePermission, namespace: string): void {
    if (GRANTED.has(permission)) return;
    const [verb, resource] = permission.split(' ');
    throw new PermissionDeniedError(
      `${resource} is forbidden: User "${AGENT_ACCOUNT}" cannot ${verb} resource "${resource}" ` +
        `in namespace "${namespace}": missing RBAC permission "${permission}"`,
      { metadata: { permission, namespace, account: AGENT_ACCOUNT } },
    );
  }
}

/**
 * The simulated clusters: each run works in a cluster of its own, as it was at the start
 * (`default` and `kube-system`), so what a run creates (a namespace) is not there for the next
 * one; calls outside a run share one. A run's cluster goes when the run ends.
 */
@Injectable()
export class KubeCluster {
  private readonly shared = new SimulatedCluster();
  private readonly byRun = new Map<string, SimulatedCluster>();

  /** The cluster of `runId`'s calls (created on first use), or the shared one. */
  of(runId: string | undefined): SimulatedCluster {
    if (runId === undefined) return this.shared;
    const cluster = this.byRun.get(runId) ?? new SimulatedCluster();
    this.byRun.set(runId, cluster);
    return cluster;
  }

  /** Drops the cluster of `runId` (its run ended). */
  forgetRun(runId: string): void {
    this.byRun.delete(runId);
  }
}
