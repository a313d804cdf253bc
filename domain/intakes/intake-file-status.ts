// What processing made of each intake file, and the reason shown beside it. A file over a parser
// bound is marked and skipped; the rest of the intake is processed all the same.
export const INTAKE_FILE_STATUSES = ['pending', 'parsing', 'read', 'truncated', 'skipped', 'skipped_too_large', 'parse_failed'] as const;
export type IntakeFileStatus = (typeof INTAKE_FILE_STATUSES)[number];

/** Content types whose text processing reads; every other type is `skipped`. */
export const TEXT_CONTENT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/html', 'message/rfc822', 'application/pdf']);

/** A read that never ended this many times (the worker stopped in the middle) is not tried again. */
export const MAX_UNFINISHED_READS = 2;

/** Most entities kept from one text (a file of a million addresses is evidence of little but itself). */
export const MAX_ENTITIES_PER_TEXT = 10_000;

/** Texts up to this many characters are searched for entities in the worker itself (a few milliseconds); longer ones in a parser process. */
export const INLINE_ENTITY_CHARS = 16 * 1024;

export interface ParserBounds {
  maxTextMb: number;
  timeoutSeconds: number;
  maxMemoryMb: number;
}

export type ParserStop = 'timeout' | 'memory' | 'crashed' | 'failed';

/** The reason shown on a file (or a text) that a parser bound stopped. */
export function parserStopReason(stop: ParserStop, bounds: ParserBounds, detail?: string): string {
  switch (stop) {
    case 'timeout':
      return `over the parser time bound (${bounds.timeoutSeconds} s, SVC_PARSER__TIMEOUT_SECONDS)`;
    case 'memory':
      return `over the parser memory bound (${bounds.maxMemoryMb} MiB, SVC_PARSER__MAX_MEMORY_MB)`;
    case 'crashed':
      return `the parser process died${detail ? ` (${detail})` : ''}`;
    case 'failed':
      return `the parser could not read it${detail ? `: ${detail.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
  }
}

export function truncatedReason(bounds: ParserBounds): string {
  return `more text than the bound (${bounds.maxTextMb} MiB of characters, SVC_PARSER__MAX_TEXT_MB): the first part was read`;
}

export function unfinishedReadsReason(times: number): string {
  return `the worker stopped ${times} times while reading this file; it is not read again`;
}

export function noTextReason(contentType: string): string {
  return `no text is read from ${contentType} files`;
}
