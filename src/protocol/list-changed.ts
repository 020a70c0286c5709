import type { ListKind } from "../catalogue/catalogue.js";

/** Sends one list's list-changed notification on an SDK server (1.x, or v2 for 2025 stdio connections). */
export function sendListChanged(
  server: {
    sendToolListChanged(): Promise<void>;
    sendPromptListChanged(): Promise<void>;
    sendResourceListChanged(): Promise<void>;
  },
  list: ListKind,
): Promise<void> {
  if (list === "tools") return server.sendToolListChanged();
  if (list === "prompts") return server.sendPromptListChanged();
  return server.sendResourceListChanged();
}
