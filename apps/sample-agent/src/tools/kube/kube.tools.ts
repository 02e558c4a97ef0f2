import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, ToolCall, type ToolCallContext } from '@toolshield/nest';
import { IsString, Matches } from 'class-validator';
import { runIdOf } from '../run-scope.js';
import { KubeCluster, type Pod } from './kube-cluster.js';

/** A Kubernetes object name (RFC 1123 label). */
const NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Arguments naming a namespace. */
export class NamespaceArgs {
  @IsString() @Matches(NAME) namespace!: string;
}

/** Arguments of `deploy`. */
export class DeployArgs extends NamespaceArgs {
  @IsString() @Matches(NAME) name!: string;
  @IsString() @Matches(/^[\w./:-]{1,200}$/) image!: string;
}

/** The simulated cluster's tools: list pods, create a namespace, deploy (in the run's cluster). */
@Injectable()
export class KubeTools {
  constructor(private readonly cluster: KubeCluster) {}

  @Tool({
    name: 'list_pods',
    description: 'Lists the pods of a Kubernetes namespace.',
    idempotent: true,
    annotations: { readOnlyHint: true },
  })
  listPods(
    @ToolArgs() args: NamespaceArgs,
    @ToolCall() call: ToolCallContext,
  ): { namespace: string; pods: Pod[] } {
    return {
      namespace: args.namespace,
      pods: this.cluster.of(runIdOf(call)).listPods(args.namespace),
    };
  }

  @Tool({ name: 'create_namespace', description: 'Creates a Kubernetes namespace.' })
  createNamespace(@ToolArgs() args: NamespaceArgs, @ToolCall() call: ToolCallContext) {
    return this.cluster.of(runIdOf(call)).createNamespace(args.namespace);
  }

  @Tool({
    name: 'deploy',
    description: 'Deploys a container image as a Deployment in a namespace.',
    annotations: { destructiveHint: false },
  })
  deploy(@ToolArgs() args: DeployArgs, @ToolCall() call: ToolCallContext): Pod {
    return this.cluster.of(runIdOf(call)).deploy(args.namespace, args.name, args.image);
  }
}
