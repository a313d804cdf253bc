// The one byte range a report download serves for a Range header: a header that is not one
// satisfiable `bytes=` range is ignored and the whole file is sent (never a 416).

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within the size, else null (the whole file is sent). */
export function singleByteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '') || size === 0) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start > end || start >= size) return null;
  return { start, end };
}
