// Which frames of a page the crawler captures. A scam page can embed frames whose document the
// browser refuses to load for a web page (file:, chrome:, view-source:, devtools:, ...): such a frame
// never gets a document, and waiting for its DOM waits forever. Those frames are skipped and
// recorded with the reason, never waited on. Captured: web documents (http, https), documents that
// carry their own bytes (data:, blob:, about:srcdoc) and the empty document (about:blank).
// javascript: URLs are skipped: their "document" is whatever a script returns, run in the
// embedding page, and it is already part of the parent's DOM.

const CAPTURED_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:']);
const CAPTURED_ABOUT = new Set(['about:blank', 'about:srcdoc']);

/**
 * Null when a frame at `url` is captured, else why it is skipped. `url` is the frame's URL, or
 * what its element asked for when the browser gave the frame none (a refused load leaves it empty).
 * An empty URL (a frame without src) is the empty document.
 */
export function frameSkipReason(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(trimmed)?.[1]?.toLowerCase();
  // A relative src resolves against the page (a web URL).
  if (!scheme) return null;
  if (CAPTURED_SCHEMES.has(`${scheme}:`)) return null;
  if (scheme === 'about') {
    const doc = trimmed.toLowerCase().split(/[?#]/)[0]!;
    return CAPTURED_ABOUT.has(doc) ? null : `non-web frame ${doc}: only about:blank and about:srcdoc are captured`;
  }
  if (scheme === 'javascript') return 'non-web frame scheme javascript: (a script URL, not a document)';
  return `non-web frame scheme ${scheme}: (the browser loads no document for it from a web page)`;
}
