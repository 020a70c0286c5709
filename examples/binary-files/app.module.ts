import { McpModule } from "frugal-mcp";
import { FileCatalog, REMOTE_FILES } from "./file-catalog.js";
import { FilesService } from "./files.service.js";

/** Files offered by id, read in byte chunks. No remote files unless `REMOTE_FILES` is provided (main.ts does). */
@McpModule({ services: [FilesService], providers: [FileCatalog, { provide: REMOTE_FILES, useValue: [] }] })
export class FilesModule {}
