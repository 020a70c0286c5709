import { FrugalConfigError } from "../errors/config-error.js";
import type { TextFormat } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import type { Capability, CapabilityServices } from "../pipeline/capability.js";
import { compose } from "../pipeline/compose.js";
import type { Invocation } from "../pipeline/invocation.js";
import type {
  OperationDefinition,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
} from "../pipeline/operation.js";
import { PIPELINE_ORDER, type StageName } from "../pipeline/order.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import type { MemberToBuild } from "./build-context.js";
import { buildPrompt } from "./build-prompt.js";
import { buildResource } from "./build-resource.js";
import { buildTool } from "./build-tool.js";
import { pipelineOrder, placeCapabilityStages } from "./capability-stages.js";
import { listOf } from "./check-options.js";
import type { DeclaredService } from "./declared-service.js";
import { decoratorsOn } from "./decorator-names.js";
import type { Operation, Registry } from "./registry.js";
import { scanService } from "./scan-service.js";

/** A service class and the singleton the container built for it. */
export interface ResolvedService {
  readonly serviceClass: Function;
  readonly instance: object;
}

/** What the builder needs besides the services. */
export interface BuildOptions {
  /** The kernel's stage factories, in any order: they are sorted into `PIPELINE_ORDER`. */
  readonly stages: readonly StageFactory[];
  /**
   * The capabilities the app registers (the built-in ones): each holds its places in the order
   * (the `place` of its stages) and may act on operations that do not carry its decorator
   * (`Capability.absent`).
   */
  readonly capabilities?: readonly Capability[] | undefined;
  /**
   * The app's own options of some capabilities, as their decorator records them: what an
   * operation gets when neither its method nor its class records any.
   */
  readonly defaults?: ReadonlyMap<Capability, unknown> | undefined;
  /** The app's `text` option (already checked), the default text format of every tool. */
  readonly appText?: TextFormat | undefined;
  /** What capability stages are built with: the app's container and logger. */
  readonly services: CapabilityServices;
}

/**
 * Scans every service, builds and checks each decorated member, and composes its
 * pipeline from the stage factories (in `PIPELINE_ORDER`). Throws a `FrugalConfigError`
 * naming the class and method for any declaration it cannot serve.
 */
export function buildRegistry(
  services: readonly (ResolvedService | DeclaredService)[],
  options: BuildOptions,
): Registry {
  const tools = new Map<string, Operation<ToolDefinition>>();
  const staticResources = new Map<string, Operation<ResourceDefinition>>();
  const templates: Operation<ResourceDefinition>[] = [];
  const prompts = new Map<string, Operation<PromptDefinition>>();
  const rank = (name: StageName) => (PIPELINE_ORDER as readonly StageName[]).indexOf(name);
  const ordered = [...options.stages].sort((a, b) => rank(a.name) - rank(b.name));
  const orderOf = ordersOf(options.capabilities ?? []);
  const operation = <D extends OperationDefinition>(definition: D): Operation<D> =>
    Object.freeze({
      definition,
      execute: composePipeline(definition, ordered, options.services, orderOf(definition)),
    });

  for (const service of services) {
    const { serviceClass, instance } = service;
    const declared = "members" in service ? service.members : undefined;
    const classMetadata = declared ? {} : (metadataStore.service(serviceClass) ?? {});
    if (!declared && !metadataStore.ownService(serviceClass)?.service) {
      throw new FrugalConfigError(
        serviceClass.name,
        "is listed in a module's `services` but is not decorated with @McpService()",
        "add @McpService() to the class",
      );
    }
    for (const member of declared ?? scanService(serviceClass)) {
      const item: MemberToBuild = {
        serviceClass,
        instance,
        member,
        classMetadata,
        registered: options.capabilities,
        defaults: options.defaults,
        appText: options.appText,
      };
      const { tool, resource, prompt } = member.metadata;
      if (!tool && !resource && !prompt) throw orphanDecorators(item);
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

/** Behaviour decorators on a member that is no tool, resource or prompt would be silently ignored: refuse them. */
function orphanDecorators(item: MemberToBuild): FrugalConfigError {
  const names = decoratorsOn(item.member.metadata);
  const several = names.length > 1;
  return new FrugalConfigError(
    `${item.serviceClass.name}.${String(item.member.property)}`,
    `has ${listOf(names, "and")} but is not a @Tool, @Resource or @Prompt, so ${several ? "they" : "it"} would do nothing`,
    `add @Tool(), @Resource(uri) or @Prompt() to the method, or remove ${several ? "those decorators" : "the decorator"}`,
  );
}

/**
 * The order of each operation's pipeline: the kernel's places with those of the app's
 * capabilities and of the operation's own, worked out once per set of capabilities.
 */
function ordersOf(
  registered: readonly Capability[],
): (definition: OperationDefinition) => readonly StageName[] {
  const known = new Map<string, readonly StageName[]>();
  return (definition) => {
    const all = new Set([...registered, ...definition.capabilities.keys()]);
    const key = [...all].map((capability) => capability.name).join("\n");
    const order = known.get(key) ?? pipelineOrder(all);
    known.set(key, order);
    return order;
  };
}

function composePipeline(
  definition: OperationDefinition,
  factories: readonly StageFactory[],
  services: CapabilityServices,
  order: readonly StageName[],
): (invocation: Invocation) => Promise<unknown> {
  const stages = placeCapabilityStages(
    definition,
    factories.flatMap((factory) => {
      const stage = factory.create(definition);
      return stage ? [{ name: factory.name, stage }] : [];
    }),
    services,
    order,
  );
  const { handler } = definition;
  return compose(stages, (invocation) => callHandler(handler, invocation));
}

function callHandler(handler: OperationDefinition["handler"], invocation: Invocation): Promise<unknown> {
  try {
    return Promise.resolve(handler(invocation.input, invocation.ctx));
  } catch (error) {
    return Promise.reject(error);
  }
}
