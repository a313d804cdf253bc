// What a parser process does (workers/parser-process.js runs one request and exits): the bounded
// text of one file, or the entities of one text. Its callers: services/intakes/bounded-parsing.ts.
import { findEntities, type FoundEntity, type FoundLink } from '../../domain/intakes/find-entities';
import { extractFileText, type FileText } from './intake-text';

export type ParserRequest =
  | { kind: 'file_text'; bytes: Uint8Array; contentType: string; maxChars: number }
  | { kind: 'entities'; text: string; html?: string; where: string; maxEntities: number };

export interface EntitiesFound {
  entities: FoundEntity[];
  links: FoundLink[];
  /** More than maxEntities were found: the first ones are kept. */
  capped: boolean;
}

/** findEntities with at most maxEntities entities (and the links between those kept). */
export function boundedEntities(text: string, where: string, html: string | undefined, maxEntities: number): EntitiesFound {
  const found = findEntities(text, where, html !== undefined ? { html } : {});
  if (found.entities.length <= maxEntities) return { ...found, capped: false };
  const entities = found.entities.slice(0, maxEntities);
  const kept = new Set(entities.map((e) => `${e.type}\u0000${e.value}`));
  const links = found.links.filter((l) => kept.has(`${l.src.type}\u0000${l.src.value}`) && kept.has(`${l.dst.type}\u0000${l.dst.value}`));
  return { entities, links, capped: true };
}

export async function handleParserRequest(request: ParserRequest): Promise<FileText | null | EntitiesFound> {
  switch (request.kind) {
    case 'file_text':
      return extractFileText(Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength), request.contentType, request.maxChars);
    case 'entities':
      return boundedEntities(request.text, request.where, request.html, request.maxEntities);
  }
}
