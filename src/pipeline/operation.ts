import type {
  Prompt,
  Resource as ResourceListing,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { CompleteCallback, ListedResource, TextFormat, VisibleTo } from "../metadata/definitions.js";
import type { UriTemplate } from "../uri/uri-template.js";
import type { Capability } from "./capability.js";
import type { InterceptorRef } from "./interceptor.js";
import type { ToolContext } from "./tool-context.js";

/**
 * What every built operation (tool, resource, prompt) knows about itself. Built once at
 * start-up by the builder, frozen, and read by the stages of its pipeline: options are
 * already checked and resolved here, so no stage reads decorator metadata.
 */
interface OperationBase {
  /** `ArticlesService.listArticles`, used in every error message. */
  readonly where: string;
  readonly serviceClass: Function;
  readonly property: string;
  /** Validates arguments; absent when the operation declares none. */
  readonly inputSchema: z.ZodObject | undefined;
  /** Calls the user's method on its service instance. */
  readonly handler: (input: unknown, ctx: ToolContext) => unknown;
  /** The resolved spec of each capability the operation carries (read them with `specOf`). */
  readonly capabilities: ReadonlyMap<Capability, unknown>;
  /** User interceptors of the class, then the method (`@UseInterceptors`), app-wide ones excluded. */
  readonly interceptors: readonly InterceptorRef[];
  /** Who it exists for (the decorator's `visibleTo`); absent: everyone. */
  readonly visibleTo: VisibleTo | undefined;
}

/** A built, frozen tool. */
export interface ToolDefinition extends OperationBase {
  readonly kind: "tool";
  readonly name: string;
  /** The result schema (an object, or a union with the other shapes its capabilities answer, `Capability.result`). */
  readonly outputSchema: z.ZodType | undefined;
  /** Exactly what `tools/list` advertises. */
  readonly listing: Tool;
  /** False for app-only tools (`visibility: ["app"]`), which the model never reads. */
  readonly modelVisible: boolean;
  /**
   * How its text block reads: `"auto"` (uniform items as a table when that costs fewer
   * tokens, a page's envelope fields on their own line), `"json"` (the result's JSON) or
   * `"compact"` (as `"auto"`, and a flat object as `key=value` lines when they cost fewer).
   */
  readonly text: TextFormat;
}

/** A built, frozen resource or resource template. */
export interface ResourceDefinition extends OperationBase {
  readonly kind: "resource";
  readonly name: string;
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** Present for URI templates. */
  readonly template: UriTemplate | undefined;
  /**
   * The inputs its capabilities add (a page's `cursor` and `limit`), query variables of its
   * URI that are not the resource's own: a stage that keys results by its own input leaves
   * them out, as one that reads them takes them out of the input the handler gets.
   */
  readonly addedInputs: readonly string[];
  readonly listing: ResourceListing | ResourceTemplate;
  readonly list: (() => Promise<ListedResource[]>) | undefined;
  readonly complete: Readonly<Record<string, CompleteCallback>>;
}

/** A built, frozen prompt. */
export interface PromptDefinition extends OperationBase {
  readonly kind: "prompt";
  readonly name: string;
  readonly listing: Prompt;
  readonly complete: Readonly<Record<string, CompleteCallback>>;
}

/** Any operation the pipeline can run. */
export type OperationDefinition = ToolDefinition | ResourceDefinition | PromptDefinition;

/** The name an operation goes by in messages and counters: a tool's or prompt's name, a resource's URI. */
export function operationName(definition: OperationDefinition): string {
  return definition.kind === "resource" ? definition.uri : definition.name;
}
