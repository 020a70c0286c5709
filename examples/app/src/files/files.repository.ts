import { existsSync, statSync, writeFileSync } from "node:fs";
import { type ByteSource, fileByteSource, Injectable } from "frugal-mcp";
import { DataDirectory } from "../config/data-directory.js";

/** A file offered for download, known by an id: clients never send paths. */
export interface DownloadableFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
}

/** The files on offer: generated into the data directory when missing. */
const FILES: ReadonlyArray<Omit<DownloadableFile, "size"> & { bytes: number }> = [
  { id: "annual-report", name: "annual-report.pdf", mimeType: "application/pdf", bytes: 2 * 1024 * 1024 },
  { id: "logo", name: "logo.png", mimeType: "image/png", bytes: 48 * 1024 },
];

/**
 * Files the app's UI downloads in byte chunks. The catalogue is fixed by the server and
 * looked up by id, so a client cannot name a path.
 */
@Injectable()
export class FilesRepository {
  constructor(private readonly dir: DataDirectory) {}

  list(): DownloadableFile[] {
    return FILES.map(({ id, name, mimeType }) => ({
      id,
      name,
      mimeType,
      size: statSync(this.ensure(id)).size,
    }));
  }

  /** A byte source for a known file (read at a position per chunk), or undefined. */
  source(id: string): ByteSource | undefined {
    return FILES.some((f) => f.id === id) ? fileByteSource(this.ensure(id)) : undefined;
  }

  private ensure(id: string): string {
    const file = FILES.find((f) => f.id === id);
    if (!file) throw new Error(`no file ${id}`);
    const path = this.dir.file(file.name);
    if (!existsSync(path)) writeFileSync(path, sampleBytes(file.name, file.bytes));
    return path;
  }
}

/** Deterministic bytes that start like the format they claim to be. */
function sampleBytes(name: string, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = 0x2545f491;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  const header = name.endsWith(".pdf")
    ? Buffer.from("%PDF-1.7\n% frugal-mcp flagship sample\n")
    : Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  header.copy(bytes, 0);
  return bytes;
}
