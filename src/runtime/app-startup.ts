import { acquireAll, awaitReady } from "../app/lifecycle.js";
import type { AppContainer } from "../container/app-container.js";
import type { EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { SESSION_STORE } from "../tokens.js";
import { startEventSources } from "./event-sources.js";

/**
 * Gets the app's providers ready before it serves: the session store is built now (so its
 * connection is awaited and closed with the app), every instance is counted as used by this
 * app, and connections and outside event sources get ready side by side, within one bound.
 *
 * @example
 * await startProviders(appContainer, events, options.readyTimeoutMs ?? 500, logger);
 */
export async function startProviders(
  appContainer: AppContainer,
  events: EventBus,
  readyTimeoutMs: number,
  logger: Logger,
): Promise<void> {
  appContainer.resolve(SESSION_STORE);
  acquireAll(appContainer.instances);
  await Promise.all([
    startEventSources(appContainer.instances, events, readyTimeoutMs, logger),
    awaitReady(appContainer.instances, readyTimeoutMs, logger),
  ]);
}

/**
 * Starts loading the counter's costly part (the BPE tables: about 190 ms and 50 MB) without
 * waiting for it. A failure is logged here; `count` then tries again and fails the call.
 *
 * @example
 * if (countsTokens) preloadTokenizer(counter, logger);
 */
export function preloadTokenizer(counter: TokenCounter, logger: Logger): void {
  counter.load?.().catch((error: unknown) => {
    logger.warn("loading the tokenizer failed; calls that count tokens will try again", error);
  });
}

/**
 * Warns about a cursor secret too short to trust, or a missing one when the app paginates
 * (cursors signed with a per-process key break on restart and across instances).
 *
 * @example
 * warnAboutCursorSecret(keyring, usesPagination(registry), logger);
 */
export function warnAboutCursorSecret(
  keyring: { readonly weak: boolean; readonly ephemeral: boolean },
  paginates: boolean,
  logger: Logger,
): void {
  if (keyring.weak)
    logger.warn("a cursorSecret is shorter than 16 bytes; use a long random secret in production");
  if (keyring.ephemeral && paginates) {
    logger.warn(
      "no cursorSecret: cursors are signed with a random per-process key, so they will not survive a restart or work across instances",
    );
  }
}
