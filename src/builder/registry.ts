import type { Invocation } from "../pipeline/invocation.js";
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from "../pipeline/operation.js";

/** A built definition with its composed pipeline. */
export interface Operation<D> {
  readonly definition: D;
  readonly execute: (invocation: Invocation) => Promise<unknown>;
}

/** Everything an app serves, built once at start-up and shared by every session. */
export interface Registry {
  readonly tools: ReadonlyMap<string, Operation<ToolDefinition>>;
  readonly staticResources: ReadonlyMap<string, Operation<ResourceDefinition>>;
  /** Tried in declaration order; the first template that matches a URI serves it. */
  readonly templates: ReadonlyArray<Operation<ResourceDefinition>>;
  readonly prompts: ReadonlyMap<string, Operation<PromptDefinition>>;
}
