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

export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h[1-6])>/gi, '\n')
    .replace(/<a\s[^>]*href=["']([^"']+)["'][^>]*>/gi, ' $1 ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
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
