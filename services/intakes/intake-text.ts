// Text of an intake file by its sniffed content type: plain text, HTML, e-mail (.eml, mailparser),
// PDF text layer (unpdf). Other types carry no text we read (images, archives): skipped.
import { simpleParser } from 'mailparser';

export interface FileText {
  text: string;
  /** The HTML, when the file is HTML (the wallet engine reads attributes and scripts too). */
  html?: string;
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

/** The text of a file, or null when its type has no text layer we read. */
export async function extractFileText(bytes: Buffer, contentType: string): Promise<FileText | null> {
  switch (contentType) {
    case 'text/plain':
      return { text: bytes.toString('utf8') };
    case 'text/html': {
      const html = bytes.toString('utf8');
      return { text: htmlToText(html), html };
    }
    case 'message/rfc822': {
      const mail = await simpleParser(bytes);
      const headers = [
        mail.subject ? `Subject: ${mail.subject}` : '',
        mail.from?.text ? `From: ${mail.from.text}` : '',
        mail.replyTo?.text ? `Reply-To: ${mail.replyTo.text}` : '',
      ].filter(Boolean);
      const body = mail.text ?? (typeof mail.html === 'string' ? htmlToText(mail.html) : '');
      return { text: [...headers, body].join('\n'), ...(typeof mail.html === 'string' ? { html: mail.html } : {}) };
    }
    case 'application/pdf': {
      const { extractText, getDocumentProxy } = await import('unpdf');
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      const { text } = await extractText(pdf, { mergePages: true });
      return { text };
    }
    default:
      return null;
  }
}
