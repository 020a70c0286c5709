import { McpModule } from "frugal-mcp";
import { FilesRepository } from "./files.repository.js";
import { FilesService } from "./files.service.js";

/** Downloads in byte chunks, for the app's UI. */
@McpModule({ services: [FilesService], providers: [FilesRepository] })
export class FilesModule {}
