import { McpModule } from "frugal-mcp";
import { NotesService } from "./notes.service.js";
import { NotesStore } from "./notes.store.js";

/** The quickstart module: one service, one provider. */
@McpModule({ services: [NotesService], providers: [NotesStore] })
export class AppModule {}
