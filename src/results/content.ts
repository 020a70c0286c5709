import type {
  AudioContent,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
} from "@modelcontextprotocol/sdk/types.js";

/** Marks a block built by these helpers, so a handler may return it (or an array of them) as content. */
const CONTENT_BLOCK = Symbol.for("frugal-mcp.content-block");

/** A content block made by one of the helpers below. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

function brand<T extends ContentBlock>(block: T): T {
  Object.defineProperty(block, CONTENT_BLOCK, { value: true, enumerable: false });
  return block;
}

/** True for blocks built by `text`, `image`, `audio`, `resourceLink` or `embeddedResource`. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === "object" && value !== null && CONTENT_BLOCK in value;
}

/** Bytes as base64, whatever form they came in. */
function toBase64(data: string | Uint8Array): string {
  return typeof data === "string"
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}

/**
 * A text block. @example `return [text("Summary"), image(png, "image/png")];`
 */
export function text(value: string): TextContent {
  return brand({ type: "text", text: value });
}

/**
 * An image block; `data` is bytes or base64. @example `return image(await readFile("chart.png"), "image/png");`
 */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return brand({ type: "image", data: toBase64(data), mimeType });
}

/**
 * An audio block; `data` is bytes or base64. @example `return audio(wav, "audio/wav");`
 */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return brand({ type: "audio", data: toBase64(data), mimeType });
}

/**
 * A link to a resource the client can read later; `name` is required by the protocol.
 *
 * @example
 * ```ts
 * return rows.map((r) => resourceLink({ uri: `articles://${r.site}/${r.slug}`, name: r.title }));
 * ```
 */
export function resourceLink(link: Omit<ResourceLink, "type">): ResourceLink {
  return brand({ type: "resource_link", ...link });
}

/**
 * A resource embedded in the result: text, or bytes (sent as base64).
 *
 * @example
 * ```ts
 * return embeddedResource({ uri: "test://doc", mimeType: "text/plain", text: "hello" });
 * ```
 */
export function embeddedResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array }),
): EmbeddedResource {
  const contents =
    "text" in resource
      ? { uri: resource.uri, mimeType: resource.mimeType, text: resource.text }
      : { uri: resource.uri, mimeType: resource.mimeType, blob: toBase64(resource.blob) };
  return brand({ type: "resource", resource: contents });
}
