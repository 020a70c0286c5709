import { deflateSync } from "node:zlib";
import { Injectable } from "frugal-mcp";

/**
 * The binary test data the conformance suite expects (an image and a sound), built in code
 * rather than pasted as base64: a 1×1 red PNG and a one-sample silent WAV. One instance
 * per app; the services that return media have it injected.
 */
@Injectable()
export class TestMedia {
  /** A valid 1×1 PNG whose single pixel is red. */
  readonly png: Uint8Array = onePixelPng([255, 0, 0]);
  /** A valid mono 16-bit PCM WAV holding one silent sample at 8 kHz. */
  readonly wav: Uint8Array = silentWav(8_000, 1);
}

/** PNG: signature, IHDR (1×1, 8-bit RGB), one IDAT (filter byte + pixel, deflated), IEND. */
function onePixelPng([red, green, blue]: [number, number, number]): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bits per channel
  header.writeUInt8(2, 9); // colour type: truecolour (RGB)
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, red, green, blue]); // filter type "none", then the pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(scanline)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as PNG uses it (node:zlib only gained `crc32` in Node 22). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** RIFF/WAVE with a PCM `fmt ` chunk (mono, 16-bit) and `samples` zero samples. */
function silentWav(sampleRate: number, samples: number): Uint8Array {
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVE", 8, "ascii");
  wav.write("fmt ", 12, "ascii");
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}
