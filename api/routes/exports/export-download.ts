// An export download as HTTP: streamed into the response with back-pressure, then audited with its
// outcome. An aborted download (the client closed the connection before the end) stops reading and
// is recorded as `aborted` with the rows handed to the connection until then; an export that failed
// midway is recorded as `failed`. What is written and how it is audited is the use case's
// (services/exports/export-service.ts).
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import type Koa from 'koa';
import { ExportAbortedError } from '../../../infra/tabular-writer';
import type { ExportDownload, ExportOutcome } from '../../../services/exports/export-service';

/**
 * Streams an export into the response and audits it when the stream ends. The handler returns at
 * once; the body is a PassThrough the writer fills while the client reads.
 */
export function streamDownload(
  ctx: Koa.Context,
  download: ExportDownload,
  file: { contentType: string; fileName: string },
  log: { error: (obj: unknown, msg: string) => void },
): void {
  const out = new PassThrough();
  const abort = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) abort.abort();
  });
  ctx.type = file.contentType;
  ctx.attachment(file.fileName);
  ctx.set('X-Export-Id', download.id);
  ctx.status = 200;
  ctx.body = out;
  void (async () => {
    let rows = 0;
    let outcome: ExportOutcome = 'complete';
    try {
      rows = await download.write(out, abort.signal);
      if (!out.writableEnded) out.end();
      await finished(ctx.res).catch(() => undefined);
      if (!ctx.res.writableFinished) outcome = 'aborted';
    } catch (err) {
      if (err instanceof ExportAbortedError || abort.signal.aborted) {
        outcome = 'aborted';
        rows = err instanceof ExportAbortedError ? err.rows : rows;
      } else {
        outcome = 'failed';
        log.error({ err, export_id: download.id }, 'export failed midway');
      }
      out.destroy();
    }
    try {
      await download.audit(outcome, rows);
    } catch (err) {
      log.error({ err, export_id: download.id }, 'could not record the export audit event');
    }
  })();
}
