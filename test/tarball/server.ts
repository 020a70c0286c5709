// The tarball test's stdio server (see notes.ts). `cursorSecret: process.env.…` is a
// `string | undefined`: under `exactOptionalPropertyTypes` it compiles only because the
// option is declared `cursorSecret?: CursorSecret | undefined`.
import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { AppModule } from "./notes.js";

async function main(): Promise<void> {
  const app = await McpFactory.create(AppModule, {
    name: "tarball-notes",
    version: "1.0.0",
    cursorSecret: process.env.NOTES_CURSOR_SECRET,
    instructions: process.env.NOTES_INSTRUCTIONS,
  });
  await app.listen({ transport: "stdio" });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
