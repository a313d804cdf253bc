// Pure rules for submitted files: safe names and the content type decided from the bytes.
import { stripUnsafeNameCharacters } from '../text-safety';

const MAX_NAME = 200;

/**
 * A file name safe to store and to send back in Content-Disposition: the last path segment, no
 * control (C0, DEL, C1: each an underscore) or shell/path characters, no bidirectional formatting
 * (removed: U+202E would make `x<U+202E>fdp.exe` read as `xexe.pdf`), no leading dots, at most 200
 * characters (extension kept).
 */
export function sanitizeFilename(raw: string | null | undefined, fallback = 'file'): string {
  const base = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  let name = stripUnsafeNameCharacters(base.replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*;`$]/g, '_'))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (!name) name = fallback;
  if (name.length > MAX_NAME) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME - ext.length) + ext;
  }
  return name;
}

/** True when the bytes are UTF-8 text (no NUL bytes, decodes without replacement). */
export function looksLikeText(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length < bytes.length ? trimPartialUtf8(sample) : sample);
    return true;
  } catch {
    return false;
  }
}

function trimPartialUtf8(b: Buffer): Buffer {
  // A sample cut inside a multi-byte character would fail to decode: drop the partial tail.
  const end = b.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const byte = b[end - i];
    if ((byte & 0xc0) === 0xc0) return b.subarray(0, end - i);
    if ((byte & 0x80) === 0) break;
  }
  return b;
}

const EML_HEADER_RE = /^(?:(?:Received|Return-Path|From|To|Subject|Date|Message-ID|MIME-Version|Content-Type|Delivered-To|X-[A-Za-z-]+):[^\n]*\r?\n)+/i;

/**
 * The content type of text the binary sniffer cannot name: an e-mail message (RFC 5322 headers),
 * HTML, or plain text.
 */
export function sniffTextType(text: string): 'message/rfc822' | 'text/html' | 'text/plain' {
  const head = text.slice(0, 4096).replace(/^\uFEFF/, '');
  if (EML_HEADER_RE.test(head) && /^(From|Subject|Date):/im.test(head)) return 'message/rfc822';
  if (/^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head)) return 'text/html';
  return 'text/plain';
}
