import { FrugalConfigError } from "../errors/config-error.js";
import { metadataStore } from "../metadata/store.js";
import { compose } from "../pipeline/compose.js";
import type { Invocation, Stage } from "../pipeline/invocation.js";
import { PIPELINE_ORDER } from "../pipeline/order.js";
import type { PipelineEnvironment, StageFactory } from "../pipeline/stage-factory.js";
import type { MemberToBuild } from "./build-context.js";
import { buildPrompt } from "./build-prompt.js";
import { buildResource } from "./build-resource.js";
import { buildTool } from "./build-tool.js";
import type {
  OperationDefinition,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
} from "./definitions.js";
import type { Operation, Registry } from "./registry.js";
import { scanService } from "./scan-service.js";

/** A service class and the singleton the container built for it. */
export interface ResolvedService {
  readonly serviceClass: Function;
  readonly instance: object;
}

/**
 * Scans every service, builds and checks each decorated member, and composes its
 * pipeline from the stage factories (in `PIPELINE_ORDER`). Throws a `FrugalConfigError`
 * naming the class and method for any declaration it cannot serve.
 */
export function buildRegistry(
  services: readonly ResolvedService[],
  stageFactories: readonly StageFactory[],
  env: PipelineEnvironment,
): Registry {
  const tools = new Map<string, Operation<ToolDefinition>>();
  const staticResources = new Map<string, Operation<ResourceDefinition>>();
  const templates: Operation<ResourceDefinition>[] = [];
  const prompts = new Map<string, Operation<PromptDefinition>>();
  const ordered = [...stageFactories].sort(
    (a, b) => PIPELINE_ORDER.indexOf(a.name) - PIPELINE_ORDER.indexOf(b.name),
  );
  const operation = <D extends OperationDefinition>(definition: D): Operation<D> =>
    Object.freeze({ definition, execute: composePipeline(definition, ordered, env) });

  for (const { serviceClass, instance } of services) {
    const classMetadata = metadataStore.service(serviceClass) ?? {};
    if (!metadataStore.ownService(serviceClass)?.service) {
      throw new FrugalConfigError(
        serviceClass.name,
        "is listed in a module's `services` but is not decorated with @McpService()",
        "add @McpService() to the class",
      );
    }
    for (const member of scanService(serviceClass)) {
      const item: MemberToBuild = { serviceClass, instance, member, classMetadata };
      const { tool, resource, prompt } = member.metadata;
      if (tool) addUnique(tools, buildTool(item), "tool name", (d) => d.name, operation);
      if (prompt) addUnique(prompts, buildPrompt(item), "prompt name", (d) => d.name, operation);
      if (resource) {
        const definition = buildResource(item);
        if (definition.template) {
          const clash = templates.find((t) => t.definition.uri === definition.uri);
          if (clash) throw duplicate(definition, "URI template", definition.uri, clash.definition);
          templates.push(operation(definition));
        } else {
          addUnique(staticResources, definition, "resource URI", (d) => d.uri, operation);
        }
      }
    }
  }
  return Object.freeze({ tools, staticResources, templates: Object.freeze(templates), prompts });
}

function addUnique<D extends OperationDefinition>(
  map: Map<string, Operation<D>>,
  definition: D,
  what: string,
  keyOf: (definition: D) => string,
  operation: (definition: D) => Operation<D>,
): void {
  const key = keyOf(definition);
  const clash = map.get(key);
  if (clash) throw duplicate(definition, what, key, clash.definition);
  map.set(key, operation(definition));
}

function duplicate(definition: OperationDefinition, what: string, key: string, other: OperationDefinition) {
  return new FrugalConfigError(
    definition.where,
    `${what} "${key}" is already used by ${other.where}`,
    "give one of them a distinct name (the decorator's `name` option, or another URI)",
  );
}

function composePipeline(
  definition: OperationDefinition,
  factories: readonly StageFactory[],
  env: PipelineEnvironment,
): (invocation: Invocation) => Promise<unknown> {
  const stages = factories.map((f) => f.create(definition, env)).filter((s): s is Stage => s !== undefined);
  const { handler } = definition;
  return compose(stages, async (invocation) => handler(invocation.input, invocation.ctx));
}
