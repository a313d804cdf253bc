// Text of an intake file by its sniffed content type: plain text, HTML, e-mail (.eml, mailparser),
// PDF text layer (unpdf). Other types carry no text we read (images, archives): skipped.
// Runs inside a parser process (workers/parser-process.js), never in the worker or the API: every
// reader stops at `maxChars`, so no text bigger than the bound is built, and the process's own
// memory and time bounds stop what the text bound cannot (a decompression bomb, one giant string).
import { simpleParser } from 'mailparser';

export interface FileText {
  text: string;
  /** The HTML, when the file is HTML (the wallet engine reads attributes and scripts too). */
  html?: string;
  /** The file held more text than maxChars: `text` is its first maxChars characters. */
  truncated: boolean;
}

const BLOCK_TAG_RE = /^<(script|style|noscript)\b/i;
const LINE_BREAK_TAG_RE = /^<(?:br\b|\/(?:p|div|li|tr|h[1-6])\b)/i;
const HREF_RE = /^<a\s[^>]*?\bhref\s*=\s*["']([^"']+)["']/i;
const ENTITIES: Record<string, string> = { '&nbsp;': ' ', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The text of an HTML page: tags become spaces (line breaks for <br> and block ends, their target
 * for links), script, style and noscript blocks go (an unclosed one runs to the end). One pass
 * with forward-only searches: linear in the page, whatever it holds (regular expressions with
 * `<[^>]*>` scan to the end from every unclosed `<`, quadratic on a page of them).
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let i = 0;
  // The next '<' and '>' at or after a position, each found once and reused until passed.
  let gt = -2;
  const nextGt = (from: number) => {
    if (gt !== -1 && gt < from) gt = html.indexOf('>', from);
    return gt;
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push(html.slice(i));
      break;
    }
    out.push(html.slice(i, lt));
    const end = nextGt(lt + 1);
    const otherLt = end < 0 ? -1 : html.lastIndexOf('<', end);
    if (end < 0 || otherLt !== lt) {
      // No '>' closes this '<' before another '<' opens: it is text.
      out.push('<');
      i = lt + 1;
      continue;
    }
    const tag = html.slice(lt, end + 1);
    i = end + 1;
    const block = BLOCK_TAG_RE.exec(tag);
    if (block && !tag.endsWith('/>')) {
      const close = new RegExp(`</${block[1]}\\b[^>]*>`, 'gi');
      close.lastIndex = i;
      const closed = close.exec(html);
      out.push(' ');
      if (!closed) break;
      i = close.lastIndex;
      continue;
    }
    if (LINE_BREAK_TAG_RE.test(tag)) out.push('\n');
    else out.push(` ${HREF_RE.exec(tag)?.[1] ?? ''} `);
  }
  return out
    .join('')
    .replace(/&(?:nbsp|amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e])
    .replace(/[ \t]+/g, ' ');
}

/** At most maxChars characters of UTF-8 bytes, decoding no more bytes than that can take (4 per character). */
function boundedUtf8(bytes: Buffer, maxChars: number): { text: string; truncated: boolean } {
  if (bytes.length <= maxChars) return { text: bytes.toString('utf8'), truncated: false };
  const decoded = bytes.subarray(0, maxChars * 4).toString('utf8');
  return decoded.length > maxChars || bytes.length > maxChars * 4 ? { text: decoded.slice(0, maxChars), truncated: true } : { text: decoded, truncated: false };
}

function capped(text: string, maxChars: number, already = false): { text: string; truncated: boolean } {
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: already };
}

interface PdfTextItem {
  str?: string;
  hasEOL?: boolean;
}

/**
 * The PDF's text layer, page by page, read as a stream and cancelled once maxChars are in hand
 * (unpdf's extractText would first build every page's whole text).
 */
async function pdfText(bytes: Buffer, maxChars: number): Promise<{ text: string; truncated: boolean }> {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const pages: string[] = [];
  let total = 0;
  let truncated = false;
  for (let n = 1; n <= pdf.numPages && !truncated; n++) {
    const page = await pdf.getPage(n);
    const reader = (page.streamTextContent() as ReadableStream<{ items: PdfTextItem[] }>).getReader();
    const parts: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const item of value.items) {
        if (item.str == null) continue;
        const s = item.str + (item.hasEOL ? '\n' : '');
        if (total + s.length > maxChars) {
          parts.push(s.slice(0, maxChars - total));
          total = maxChars;
          truncated = true;
          break;
        }
        parts.push(s);
        total += s.length;
      }
      if (truncated) {
        await reader.cancel(new Error('text bound reached')).catch(() => undefined);
        break;
      }
    }
    pages.push(parts.join(''));
    total += 1; // the line break between pages
  }
  // As unpdf's mergePages: whitespace collapsed, line structure kept, at most one blank line.
  const text = pages.join('\n').replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n');
  return capped(text, maxChars, truncated);
}

/** The text of a file (at most maxChars characters), or null when its type has no text layer we read. */
export async function extractFileText(bytes: Buffer, contentType: string, maxChars: number): Promise<FileText | null> {
  switch (contentType) {
    case 'text/plain':
      return boundedUtf8(bytes, maxChars);
    case 'text/html': {
      const html = boundedUtf8(bytes, maxChars);
      return { ...capped(htmlToText(html.text), maxChars, html.truncated), html: html.text };
    }
    case 'message/rfc822': {
      const mail = await simpleParser(bytes);
      const headers = [
        mail.subject ? `Subject: ${mail.subject}` : '',
        mail.from?.text ? `From: ${mail.from.text}` : '',
        mail.replyTo?.text ? `Reply-To: ${mail.replyTo.text}` : '',
      ].filter(Boolean);
      const html = typeof mail.html === 'string' ? capped(mail.html, maxChars) : null;
      const body = mail.text !== undefined ? capped(mail.text, maxChars) : html ? capped(htmlToText(html.text), maxChars, html.truncated) : { text: '', truncated: false };
      const out = capped([...headers, body.text].join('\n'), maxChars, body.truncated || Boolean(html?.truncated));
      return { ...out, ...(html ? { html: html.text } : {}) };
    }
    case 'application/pdf':
      return pdfText(bytes, maxChars);
    default:
      return null;
  }
}
