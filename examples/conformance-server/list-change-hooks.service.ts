import { CATALOGUE, type CatalogueControl, Inject, McpService, Prompt, Tool } from "frugal-mcp";

/**
 * The hooks the conformance suite calls to see list-changed notifications arrive on a
 * `subscriptions/listen` stream: each switches a dynamic tool (or prompt) off when it is on
 * and on when it is off, through the app's catalogue, which notifies every listener.
 */
@McpService()
export class ListChangeHooksService {
  constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueControl) {}

  @Tool({ description: "Changes the tool list (switches test_dynamic_tool on or off)" })
  async testTriggerToolChange() {
    return this.toggle("test_dynamic_tool");
  }

  @Tool({ description: "Changes the prompt list (switches test_dynamic_prompt on or off)" })
  async testTriggerPromptChange() {
    return this.toggle("test_dynamic_prompt");
  }

  @Tool({ description: "A tool that comes and goes" })
  testDynamicTool() {
    return "still here";
  }

  @Prompt({ description: "A prompt that comes and goes" })
  testDynamicPrompt() {
    return "still here";
  }

  private async toggle(name: string) {
    const enabled = this.catalogue.isEnabled(name);
    await (enabled ? this.catalogue.disable(name) : this.catalogue.enable(name));
    return { name, enabled: !enabled };
  }
}
