// The STIX 2.1 bundle writer of the exports (the tables, CSV and XLSX, are infra/tabular-writer.ts)
// and the content types of every export format. Objects come from async iterables (keyset batches
// of db/repositories/exports/export-repository.ts) and go to any Writable, honouring back-pressure;
// an AbortSignal (the client went away) stops the reading between objects.
import type { Writable } from 'node:stream';
import type { StixObject } from '../../domain/exports/stix-objects';
import { TABULAR_CONTENT_TYPES, checkAbort, writeChunk } from '../../infra/tabular-writer';

export const EXPORT_CONTENT_TYPES = {
  ...TABULAR_CONTENT_TYPES,
  stix: 'application/stix+json;version=2.1',
} as const;

/**
 * A STIX 2.1 bundle written incrementally: `{"type":"bundle","id":...,"objects":[` object by object
 * `]}`. `objects` yields objects or batches of them (any iterable, walked synchronously: an await
 * per object costs more than the object); a string in a batch is an object already serialized
 * (JSON). Leaves `out` open.
 */
export async function writeStixBundle(bundleId: string, objects: AsyncIterable<StixObject | Iterable<StixObject | string>>, out: Writable, signal?: AbortSignal): Promise<number> {
  await writeChunk(out, `{"type":"bundle","id":${JSON.stringify(bundleId)},"objects":[`, signal);
  let n = 0;
  // Objects are joined into ~64 KB chunks: one write per object would cost more than the JSON.
  let buffer = '';
  for await (const item of objects) {
    checkAbort(signal, n);
    for (const o of isStixObject(item) ? [item] : item) {
      buffer += `${n ? ',' : ''}\n${typeof o === 'string' ? o : JSON.stringify(o)}`;
      n++;
      if (buffer.length > 65536) {
        await writeChunk(out, buffer, signal);
        checkAbort(signal, n);
        buffer = '';
      }
    }
  }
  await writeChunk(out, `${buffer}\n]}\n`, signal);
  return n;
}

function isStixObject(item: StixObject | Iterable<StixObject | string>): item is StixObject {
  return typeof (item as StixObject).type === 'string';
}
