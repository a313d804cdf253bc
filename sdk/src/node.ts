// Node-only helpers (import from '@fip/sdk/node'): the core SDK stays free of Node imports.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import type { Download } from './download.js';

/** The download as a Node Readable (for pipes into Node streams). */
export function toNodeReadable(download: Download | ReadableStream<Uint8Array>): Readable {
  const stream = 'stream' in download ? download.stream : download;
  return Readable.fromWeb(stream as unknown as NodeWebReadableStream<Uint8Array>);
}

/** Streams the download into a file (never buffered whole); answers the bytes written. */
export async function saveDownload(download: Download | ReadableStream<Uint8Array>, filePath: string): Promise<number> {
  const out = createWriteStream(filePath);
  await pipeline(toNodeReadable(download), out);
  return out.bytesWritten;
}
