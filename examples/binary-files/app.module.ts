import { McpModule } from "frugal-mcp";
import { FileCatalog } from "./file-catalog.js";
import { FilesService } from "./files.service.js";

/** Files offered by id, read in byte chunks. */
@McpModule({ services: [FilesService], providers: [FileCatalog] })
export class FilesModule {}
