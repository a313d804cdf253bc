// Building intake submissions for tests: multipart forms, a small PDF with a text layer, an .eml,
// and hostile PDFs (a small compressed stream that decodes to a huge text).
import zlib from 'node:zlib';

export function intakeForm(payload: unknown, files: Array<{ name: string; type: string; bytes: Buffer | string }> = [], payloadRaw?: string): FormData {
  const form = new FormData();
  if (payloadRaw !== undefined || payload !== undefined) form.append('payload', payloadRaw ?? JSON.stringify(payload));
  for (const f of files) form.append('files', new Blob([typeof f.bytes === 'string' ? Buffer.from(f.bytes) : new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

/** A one-page PDF whose text layer holds `text` (ASCII, no parentheses). */
export function pdfWithText(text: string): Buffer {
  const stream = `BT /F1 12 Tf 40 750 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export function emlMessage(from: string, subject: string, body: string): string {
  return [`From: ${from}`, 'To: victim@example.org', `Subject: ${subject}`, 'Date: Sat, 21 Nov 2026 10:00:00 +0000', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');
}

/** A one-page PDF whose only content stream is `stream`, deflated (/FlateDecode). */
function pdfWithDeflatedContent(stream: Buffer): Buffer {
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>'),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from('\nendstream')]),
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
    chunks.push(obj);
    length += obj.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

/**
 * A decompression bomb: a PDF of a few hundred KB whose content stream decodes to `mib` MiB of text
 * operators: `lines` is short lines (50 per page height, over and over), `one-string` a single
 * string of that size (which makes pdf.js grow one array past V8's largest, a fatal abort).
 */
export function pdfTextBomb(mib: number, shape: 'lines' | 'one-string'): Buffer {
  const unit =
    shape === 'lines'
      ? Buffer.from(Array.from({ length: 50 }, (_, i) => `1 0 0 1 40 ${750 - i * 14} Tm (scam ledger line 0123456789 abcdefghij) Tj\n`).join('').repeat(350))
      : Buffer.alloc(1024 * 1024, 'A');
  const chunks = [Buffer.from(shape === 'lines' ? 'BT /F1 12 Tf\n' : 'BT /F1 12 Tf 40 750 Td (')];
  for (let written = 0; written < mib * 1024 * 1024; written += unit.length) chunks.push(unit);
  chunks.push(Buffer.from(shape === 'lines' ? 'ET\n' : ') Tj ET\n'));
  return pdfWithDeflatedContent(zlib.deflateSync(Buffer.concat(chunks), { level: 9 }));
}
