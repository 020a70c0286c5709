import { audio, embeddedResource, image, McpService, Tool, text } from "frugal-mcp";
import { z } from "zod";
import { TestMedia } from "./test-media.js";

/**
 * SEP-1613: the schema `json_schema_2020_12_tool` advertises, kept as written (`$schema`,
 * `$defs`, `$ref`, `additionalProperties`) instead of the one derived from its zod `input`.
 */
const ADDRESS_BOOK_ENTRY_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
  },
  additionalProperties: false,
} as const;

/** Tools whose results exercise every kind of content block, errors, and raw JSON Schema. */
@McpService()
export class ContentToolsService {
  constructor(private readonly media: TestMedia) {}

  @Tool({ description: "Tests simple text content response" })
  testSimpleText() {
    return "This is a simple text response for testing.";
  }

  @Tool({ description: "Tests image content response" })
  testImageContent() {
    return image(this.media.png, "image/png");
  }

  @Tool({ description: "Tests audio content response" })
  testAudioContent() {
    return audio(this.media.wav, "audio/wav");
  }

  @Tool({ description: "Tests embedded resource content response" })
  testEmbeddedResource() {
    return embeddedResource({
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    });
  }

  @Tool({ description: "Tests response with multiple content types (text, image, resource)" })
  testMultipleContentTypes() {
    return [
      text("Multiple content types test:"),
      image(this.media.png, "image/png"),
      embeddedResource({
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      }),
    ];
  }

  @Tool({ description: "Tests error response handling" })
  testErrorHandling(): never {
    // A thrown error answers `isError: true` with its message; the stack stays in the server log.
    throw new Error("This tool intentionally returns an error for testing");
  }

  @Tool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
    inputJsonSchema: ADDRESS_BOOK_ENTRY_SCHEMA,
    // What actually validates the arguments: the same shape, strict like `additionalProperties: false`.
    input: {
      name: z.string().optional(),
      address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
    },
  })
  jsonSchemaTool(args: { name?: string; address?: { street?: string; city?: string } }) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }
}
