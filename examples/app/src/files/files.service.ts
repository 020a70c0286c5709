import { type ByteRange, byteChunkInput, McpService, readByteChunk, Tool, toolError } from "frugal-mcp";
import { z } from "zod";
import { FilesRepository } from "./files.repository.js";

/**
 * Downloads for the app's UI. `list_files` is for the model (a few tokens); the bytes go
 * through `download_file`, an app-only tool (`visibility: ["app"]`): an MCP App's viewer
 * calls it chunk by chunk (at most 512 KiB each, base64 once in `structuredContent`), and
 * the model never reads base64.
 */
@McpService()
export class FilesService {
  constructor(private readonly files: FilesRepository) {}

  @Tool({ description: "The files this app offers for download", annotations: { readOnlyHint: true } })
  listFiles() {
    return { files: this.files.list() };
  }

  @Tool({
    description: "Read a file in byte chunks (base64), for the app's viewer",
    input: { fileId: z.string().describe("id from list_files"), ...byteChunkInput() },
    visibility: ["app"],
    annotations: { readOnlyHint: true },
  })
  downloadFile({ fileId, ...range }: { fileId: string } & ByteRange) {
    const source = this.files.source(fileId);
    if (!source) return toolError(`No file "${fileId}". Call list_files to see the ids.`);
    // `range` carries the client's `version` too: a file replaced mid-download is refused.
    return readByteChunk(source, range);
  }
}
