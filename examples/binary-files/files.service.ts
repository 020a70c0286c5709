import { type ByteRange, byteChunkInput, McpService, readByteChunk, Tool, toolError } from "frugal-mcp";
import { z } from "zod";
import { FileCatalog } from "./file-catalog.js";

/**
 * Binary files, local or remote, read in chunks of at most 512 KiB, as an MCP App's viewer
 * does (the PDF viewer of MCP Apps reads its document this way). The chunk tool is
 * app-only: the model never sees base64, the app's UI does; each chunk's bytes travel
 * once (base64 in `structuredContent`, with a one-line text). Each chunk carries the file's
 * `version`; the viewer passes the first chunk's with every later one, so a file replaced
 * mid-download is refused (start again) instead of reassembled from two versions.
 */
@McpService()
export class FilesService {
  constructor(private readonly catalog: FileCatalog) {}

  @Tool({ description: "List the files this server offers", annotations: { readOnlyHint: true } })
  listFiles() {
    return { files: this.catalog.list() };
  }

  @Tool({
    description: "Read a file in byte chunks (base64), for the app's viewer",
    input: { fileId: z.string().describe("id from list_files"), ...byteChunkInput() },
    visibility: ["app"],
    annotations: { readOnlyHint: true },
  })
  readFileBytes({ fileId, ...range }: { fileId: string } & ByteRange) {
    const source = this.catalog.sourceOf(fileId);
    if (!source) return toolError(`No file "${fileId}". Call list_files to see the ids.`);
    // `range` carries the client's `version` too: a file replaced mid-download is refused.
    return readByteChunk(source, range);
  }
}
