// multipart/form-data for routes that take files (POST /intakes): parsed with formidable into
// temporary files, with size and count limits; over a limit is 413 naming the limit, and the
// temporary files are removed whatever happens (the caller stores only after a complete parse).
// formidable takes every part with a Content-Type for a file; a JSON field (the intake's payload)
// is sent typed `application/json` by curl's `;type=`, Python requests' `files=` and the spec's own
// form, so such a part named as a JSON field is read as text like an untyped one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import formidable, { errors as formidableErrors, type File as FormidableFile } from 'formidable';
import { ApiError, BadRequestError, PayloadTooLargeError, type FieldIssue } from './errors';

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxTotalBytes: number;
  /** Limit on all non-file fields together. */
  maxFieldBytes: number;
}

export interface UploadedFile {
  field: string;
  originalName: string | null;
  declaredType: string | null;
  size: number;
  sha256: string;
  path: string;
}

export interface MultipartResult {
  fields: Record<string, string[]>;
  files: UploadedFile[];
  /** Removes the temporary files (call in finally). */
  cleanup(): Promise<void>;
}

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB`;

/** Reads and discards what is left of the request (bounded), so the client can read our answer. */
async function drain(req: NodeJS.ReadableStream & { destroy?: () => void; complete?: boolean }, maxBytes: number): Promise<void> {
  if ((req as { readableEnded?: boolean }).readableEnded) return;
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      req.removeListener('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        req.destroy?.();
        done();
      }
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
    setTimeout(done, 15_000).unref();
  });
}

/** How to decode a JSON part from its Content-Type (no charset: UTF-8, as RFC 8259 asks), or why it is refused. */
function jsonPartEncoding(contentType: string): { ok: true; encoding: BufferEncoding } | { ok: false; reason: string } {
  const [type, ...params] = contentType.split(';').map((p) => p.trim());
  // application/octet-stream is what curl declares for `-F payload=@payload.json` (it maps no type to .json).
  if (!['application/json', 'application/octet-stream'].includes(type!.toLowerCase())) return { ok: false, reason: `declared ${type}; send it as application/json or untyped` };
  const charsetParam = params.map((p) => p.split('=')).find(([k]) => k!.trim().toLowerCase() === 'charset');
  const charset = (charsetParam?.[1] ?? 'utf-8').trim().replace(/^"|"$/g, '').toLowerCase();
  if (['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(charset)) return { ok: true, encoding: 'utf8' };
  if (['iso-8859-1', 'latin1', 'l1'].includes(charset)) return { ok: true, encoding: 'latin1' };
  return { ok: false, reason: `charset ${charset} is not supported; send UTF-8` };
}

/**
 * `jsonFields`: parts read as text fields also when typed `application/json` (any charset
 * parameter; UTF-8, US-ASCII or ISO-8859-1) or `application/octet-stream`, with or without a file
 * name; typed otherwise they are a 415.
 */
export async function parseMultipart(ctx: Koa.Context, limits: MultipartLimits, fileField: string, options: { jsonFields?: readonly string[] } = {}): Promise<MultipartResult> {
  const uploadDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fip-upload-'));
  const cleanup = () => fs.promises.rm(uploadDir, { recursive: true, force: true });
  const form = formidable({
    uploadDir,
    keepExtensions: false,
    allowEmptyFiles: true,
    minFileSize: 0,
    maxFiles: limits.maxFiles,
    maxFileSize: limits.maxFileBytes,
    maxTotalFileSize: limits.maxTotalBytes,
    maxFieldsSize: limits.maxFieldBytes,
    maxFields: 50,
    hashAlgorithm: 'sha256',
  });
  // Files finish writing in any order; answer them in the order the client sent them.
  const sent = new WeakMap<object, number>();
  let nextIndex = 0;
  form.on('fileBegin', (_name: string, file: object) => sent.set(file, nextIndex++));
  const jsonFields = new Set(options.jsonFields ?? []);
  const refusedParts: FieldIssue[] = [];
  type Part = formidable.Part & { transferEncoding?: string };
  const handlePart = (form as unknown as { _handlePart(part: Part): void })._handlePart.bind(form);
  form.onPart = (part: Part) => {
    if (!part.name || !jsonFields.has(part.name) || !part.mimetype) return handlePart(part);
    const decoded = jsonPartEncoding(part.mimetype);
    if (!decoded.ok) {
      refusedParts.push({ path: `body.${part.name}`, message: decoded.reason });
      // A legacy stream (no resume): reading its data discards it.
      part.on('data', () => undefined);
      return;
    }
    // Untyped, it is a field: formidable reads it as text within the fields' size limit.
    part.mimetype = null;
    part.originalFilename = null;
    part.transferEncoding = decoded.encoding;
    return handlePart(part);
  };
  let parsed: [formidable.Fields, formidable.Files];
  try {
    parsed = await form.parse(ctx.req);
  } catch (err) {
    await cleanup();
    const code = (err as { code?: number }).code;
    let apiErr: ApiError;
    switch (code) {
      case formidableErrors.biggerThanMaxFileSize:
        apiErr = new PayloadTooLargeError(`a file is over the file size limit of ${mb(limits.maxFileBytes)} (SVC_INTAKE__MAX_FILE_MB)`);
        break;
      case formidableErrors.biggerThanTotalMaxFileSize:
        apiErr = new PayloadTooLargeError(`the files are over the total size limit of ${mb(limits.maxTotalBytes)} (SVC_INTAKE__MAX_TOTAL_MB)`);
        break;
      case formidableErrors.maxFilesExceeded:
        apiErr = new PayloadTooLargeError(`more files than the file count limit of ${limits.maxFiles} (SVC_INTAKE__MAX_FILES)`);
        break;
      case formidableErrors.maxFieldsSizeExceeded:
        apiErr = new PayloadTooLargeError(`the form fields are over their size limit of ${mb(limits.maxFieldBytes)} (SVC_API__BODY_LIMIT_MB)`);
        break;
      case formidableErrors.maxFieldsExceeded:
        apiErr = new BadRequestError('too_many_fields', 'too many form fields (at most 50)');
        break;
      default:
        apiErr = new BadRequestError('invalid_multipart', 'the request body is not valid multipart/form-data');
    }
    if (apiErr.status === 413) {
      (apiErr as { details?: unknown }).details = {
        limits: { max_file_bytes: limits.maxFileBytes, max_files: limits.maxFiles, max_total_bytes: limits.maxTotalBytes },
      };
    }
    await drain(ctx.req, limits.maxTotalBytes * 2);
    throw apiErr;
  }
  const [fields, files] = parsed;
  if (refusedParts.length) {
    await cleanup();
    throw new ApiError(415, 'unsupported_media_type', `the ${refusedParts.map((p) => p.path.slice('body.'.length)).join(', ')} part must be JSON: ${refusedParts.map((p) => p.message).join('; ')}`, refusedParts);
  }
  const out: UploadedFile[] = [];
  try {
    const inOrder = Object.entries(files)
      .flatMap(([field, list]) => ((list ?? []) as FormidableFile[]).map((f) => [field, f] as const))
      .sort(([, a], [, b]) => (sent.get(a) ?? 0) - (sent.get(b) ?? 0));
    for (const [field, f] of inOrder) {
      out.push({
        field,
        originalName: f.originalFilename ?? null,
        declaredType: f.mimetype ?? null,
        size: f.size,
        sha256: typeof f.hash === 'string' ? f.hash : createHash('sha256').update(await fs.promises.readFile(f.filepath)).digest('hex'),
        path: f.filepath,
      });
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  const stray = out.find((f) => f.field !== fileField);
  if (stray) {
    await cleanup();
    throw new BadRequestError('unexpected_part', `unexpected file part "${stray.field}"; files go in parts named "${fileField}"`, [{ path: `body.${stray.field}`, message: 'unexpected file part' }]);
  }
  return { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, (v ?? []) as string[]])), files: out, cleanup };
}
