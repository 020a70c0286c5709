import { describe, expect, it } from "vitest";
import { sendListChanged } from "../../../src/protocol/list-changed.js";

describe("sendListChanged", () => {
  it("sends the notification of the list that changed", async () => {
    const sent: string[] = [];
    const server = {
      sendToolListChanged: async () => void sent.push("tools"),
      sendPromptListChanged: async () => void sent.push("prompts"),
      sendResourceListChanged: async () => void sent.push("resources"),
    };
    await sendListChanged(server, "prompts");
    await sendListChanged(server, "resources");
    await sendListChanged(server, "tools");
    expect(sent).toEqual(["prompts", "resources", "tools"]);
  });
});
