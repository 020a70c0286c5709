import { embeddedResource, image, McpService, Prompt } from "frugal-mcp";
import { z } from "zod";
import { TestMedia } from "./test-media.js";

const CITIES = ["paris", "park", "party", "prague", "porto"];

/** Prompts: plain, with arguments (and completions), with an embedded resource, with an image. */
@McpService()
export class TestPromptsService {
  constructor(private readonly media: TestMedia) {}

  @Prompt({ title: "Simple Test Prompt", description: "A simple prompt without arguments" })
  testSimplePrompt() {
    return "This is a simple prompt for testing.";
  }

  @Prompt({
    title: "Prompt With Arguments",
    description: "A prompt with required arguments",
    input: {
      arg1: z.string().describe("First test argument"),
      arg2: z.string().describe("Second test argument"),
    },
    complete: { arg1: (prefix) => CITIES.filter((city) => city.startsWith(prefix)) },
  })
  testPromptWithArguments({ arg1, arg2 }: { arg1: string; arg2: string }) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({
    title: "Prompt With Embedded Resource",
    description: "A prompt that includes an embedded resource",
    input: { resourceUri: z.string().describe("URI of the resource to embed") },
  })
  testPromptWithEmbeddedResource({ resourceUri }: { resourceUri: string }) {
    // Content blocks and strings each become one user message, in order.
    return [
      embeddedResource({
        uri: resourceUri,
        mimeType: "text/plain",
        text: "Embedded resource content for testing.",
      }),
      "Please process the embedded resource above.",
    ];
  }

  @Prompt({ title: "Prompt With Image", description: "A prompt that includes image content" })
  testPromptWithImage() {
    return [image(this.media.png, "image/png"), "Please analyze the image above."];
  }
}
