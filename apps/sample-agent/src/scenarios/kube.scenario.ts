import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

const listShop = { name: 'list_pods', arguments: { namespace: 'shop' } };

/**
 * Listing pods in a namespace that does not exist (a run's cluster starts without it):
 * `not_found`, create it, list again.
 */
export const kubeMissingNamespaceScenario: Scenario = {
  name: 'kube-missing-namespace',
  title: 'Kubernetes: pods of a missing namespace (not_found → create it → retry)',
  task: 'List the pods of the "shop" namespace; create the namespace if it is missing.',
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the pods of shop',
        approaches: [
          listShop,
          [{ name: 'create_namespace', arguments: { namespace: 'shop' } }, listShop],
        ],
        report: (output) =>
          `The shop namespace is ready with ${(output as { pods: unknown[] }).pods.length} pods.`,
      },
    ],
  },
};

/** Deploying without the permission: `permission_denied`, so the agent stops and says which. */
export const kubeDeployForbiddenScenario: Scenario = {
  name: 'kube-deploy-forbidden',
  title: 'Kubernetes: deploy without permission (permission_denied → STOP and explain)',
  task: 'Deploy nginx:1.27 as "web" in the prod namespace.',
  recoverable: false,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'the web deployment in prod',
        approaches: [
          { name: 'deploy', arguments: { namespace: 'prod', name: 'web', image: 'nginx:1.27' } },
        ],
        report: () => 'Deployed web to prod.',
      },
    ],
  },
};
