import { Budget } from "../budget/budget.capability.js";
import type { Registry } from "../builder/registry.js";
import { scanService } from "../builder/scan-service.js";
import { Ephemeral } from "../ephemeral/ephemeral.capability.js";
import type { RecordedCapability } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { Paginated } from "../pagination/paginated.capability.js";
import { specOf } from "../pipeline/capability.js";
import type { OperationDefinition } from "../pipeline/operation.js";

/** Every operation of a registry, whatever its kind. */
export function allDefinitions(registry: Registry): OperationDefinition[] {
  return [
    ...registry.tools.values(),
    ...registry.staticResources.values(),
    ...registry.templates,
    ...registry.prompts.values(),
  ].map((operation) => operation.definition);
}

/** Whether anything counts tokens (so the tokenizer is worth loading at start-up). */
export function usesBudgets(registry: Registry): boolean {
  return allDefinitions(registry).some(
    (d) =>
      specOf(d, Budget.capability)?.tokens !== undefined || specOf(d, Ephemeral.capability) !== undefined,
  );
}

/**
 * Whether a tool answers pages the model reads under `text: "auto"`: choosing a table over
 * JSON counts tokens on every such page, so the tokenizer is worth loading at start-up.
 * (A tool that returns a plain array counts too, but loads the tokenizer on first use.)
 */
export function writesPageTables(registry: Registry): boolean {
  return [...registry.tools.values()].some(({ definition: d }) => {
    const pagination = specOf(d, Paginated.capability);
    const lines = pagination?.line !== undefined || pagination?.as === "links";
    return d.modelVisible && d.text !== "json" && pagination !== undefined && !lines;
  });
}

/** Whether anything is paginated (so a missing cursor secret deserves a warning). */
export function usesPagination(registry: Registry): boolean {
  return allDefinitions(registry).some((d) => specOf(d, Paginated.capability) !== undefined);
}

/**
 * Whether some declared resource is held to a budget (the app's, its class's or its own),
 * read from metadata before anything is built: one over it is refused whole, so the app
 * needs the tool that reads it in slices.
 */
export function budgetsResources(services: readonly Function[], appBudget: number | undefined): boolean {
  return services.some((service) => {
    const budgeted = appBudget !== undefined || records(metadataStore.service(service)?.capabilities, Budget);
    return scanService(service).some(
      (member) =>
        member.metadata.resource !== undefined && (budgeted || records(member.metadata.capabilities, Budget)),
    );
  });
}

/** Whether some service method is `@Ephemeral`, read from metadata before anything is built. */
export function declaresEphemeral(services: readonly Function[]): boolean {
  return services.some((service) =>
    scanService(service).some((member) => records(member.metadata.capabilities, Ephemeral)),
  );
}

/** Whether `recorded` holds the capability of `decorator`. */
function records(
  recorded: readonly RecordedCapability[] | undefined,
  decorator: { readonly capability: object },
): boolean {
  return recorded?.some((entry) => entry.capability === decorator.capability) ?? false;
}
