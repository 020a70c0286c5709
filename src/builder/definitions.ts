import type {
  Prompt,
  Resource as ResourceListing,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type {
  CompleteCallback,
  ListedResource,
  MethodMetadata,
  ServiceMetadata,
} from "../metadata/definitions.js";
import type { PaginationSpec } from "../pagination/paginated-input.js";
import type { ToolContext } from "../runtime/tool-context.js";
import type { UriTemplate } from "../uri/uri-template.js";

/** What every built operation (tool, resource, prompt) knows about itself. */
interface OperationBase {
  /** `ArticlesService.listArticles`, used in every error message. */
  readonly where: string;
  readonly serviceClass: Function;
  readonly property: string;
  /** The decorators that apply to this method (after inheritance). */
  readonly metadata: MethodMetadata;
  readonly classMetadata: ServiceMetadata;
  /** Validates arguments; absent when the operation declares none. */
  readonly inputSchema: z.ZodObject | undefined;
  /** Calls the user's method on its service instance. */
  readonly handler: (input: unknown, ctx: ToolContext) => unknown;
  /** Present under `@Paginated`. */
  readonly pagination: PaginationSpec | undefined;
}

/** A built, frozen tool. */
export interface ToolDefinition extends OperationBase {
  readonly kind: "tool";
  readonly name: string;
  /** The result schema (an object, or a union with the spilled shape under `@Ephemeral`). */
  readonly outputSchema: z.ZodType | undefined;
  /** Exactly what `tools/list` advertises. */
  readonly listing: Tool;
  /** False for app-only tools (`visibility: ["app"]`), which the model never reads. */
  readonly modelVisible: boolean;
}

/** A built, frozen resource or resource template. */
export interface ResourceDefinition extends OperationBase {
  readonly kind: "resource";
  readonly name: string;
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** Present for URI templates. */
  readonly template: UriTemplate | undefined;
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
