import { audio, embeddedResource, image, McpService, Tool, text } from "frugal-mcp";
import { z } from "zod";
import { TestMedia } from "./test-media.js";

/**
 * The schema `json_schema_2020_12_tool` advertises, kept as written instead of the one derived
 * from its zod `input` (which would drop `$schema`): SEP-1613's `$schema`, `$defs`, `$ref` and
 * `additionalProperties`, and SEP-2106's `$anchor`, `allOf`/`anyOf` and `if`/`then`/`else` —
 * the suite's `json-schema-2020-12` scenario checks that each one survives `tools/list`.
 */
const ADDRESS_BOOK_ENTRY_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a plain object never awaited
  then: { required: ["phone"] },
  else: { required: ["email"] },
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
    description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)",
    inputJsonSchema: ADDRESS_BOOK_ENTRY_SCHEMA,
    // What actually validates the arguments: the same properties, strict like
    // `additionalProperties: false`. The advertised `allOf`/`if` (a phone or an email) are not
    // enforced, so a call with only a name and an address still answers.
    input: {
      name: z.string().optional(),
      address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
      contactMethod: z.enum(["phone", "email"]).optional(),
      phone: z.string().optional(),
      email: z.string().optional(),
    },
  })
  jsonSchemaTool(args: {
    name?: string;
    address?: { street?: string; city?: string };
    contactMethod?: "phone" | "email";
    phone?: string;
    email?: string;
  }) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }
}
