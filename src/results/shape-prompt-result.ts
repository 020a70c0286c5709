import type { GetPromptResult, PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../common/guards.js";
import { isContentBlock } from "./content.js";

/**
 * Turns what a prompt handler returned into a `GetPromptResult`: a string is one user
 * message; an array holds messages, strings (user text) or content blocks (user
 * messages); a `{ messages }` result passes through.
 */
export function shapePromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (isGetPromptResult(value)) return value;
  const items = Array.isArray(value) ? value : [value];
  const messages = items.map(toMessage);
  return description === undefined ? { messages } : { description, messages };
}

function toMessage(item: unknown): PromptMessage {
  if (typeof item === "string") return { role: "user", content: { type: "text", text: item } };
  if (isContentBlock(item)) return { role: "user", content: item };
  if (typeof item === "object" && item !== null && "role" in item && "content" in item)
    return item as PromptMessage;
  throw new Error(
    "a prompt must return a string, content blocks, messages ({ role, content }) or { messages }; got " +
      JSON.stringify(item)?.slice(0, 80),
  );
}

function isGetPromptResult(value: unknown): value is GetPromptResult {
  return isObject(value) && Array.isArray(value.messages);
}
