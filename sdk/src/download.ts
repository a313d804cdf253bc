// Streaming downloads: a web ReadableStream (Node 18+ and browsers) with what the headers say.

export interface Download {
  /** The body as a web stream of bytes: read it once (pipe it to a file, a Blob, a parser). */
  stream: ReadableStream<Uint8Array>;
  /** 200, or 206 for a byte range. */
  status: number;
  contentType: string | null;
  /** From Content-Disposition, when the server names the file. */
  filename: string | null;
  /** Content-Length, when known (absent for streamed exports). */
  size: number | null;
  response: Response;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* wins over filename). */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall back to filename=
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  return plain ? (plain[2] ?? plain[1]).trim() : null;
}

export function toDownload(response: Response): Download {
  const length = response.headers.get('Content-Length');
  return {
    stream: response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
    status: response.status,
    contentType: response.headers.get('Content-Type'),
    filename: filenameFromDisposition(response.headers.get('Content-Disposition')),
    size: length !== null && /^\d+$/.test(length) ? Number(length) : null,
    response,
  };
}
