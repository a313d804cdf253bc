// Reading intake files and searching their texts for entities under the parser bounds
// (SVC_PARSER__*): each file in a parser process of its own (infra/isolated-process.ts), at most
// max_concurrent at once per worker, so that a hostile file costs its own process and never the
// worker or the API that may share its event loop. What stopped a parser becomes the file's status
// and reason (domain/intakes/intake-file-status.ts).
import path from 'node:path';
import type { AppConfig } from '../../config/config';
import {
  INLINE_ENTITY_CHARS,
  MAX_ENTITIES_PER_TEXT,
  TEXT_CONTENT_TYPES,
  noTextReason,
  parserStopReason,
  truncatedReason,
  type IntakeFileStatus,
  type ParserBounds,
} from '../../domain/intakes/intake-file-status';
import { createIsolationGate, runIsolated, type IsolatedOutcome, type IsolationLimits } from '../../infra/isolated-process';
import type { FileText } from './intake-text';
import { boundedEntities, type EntitiesFound, type ParserRequest } from './parser-requests';

const PARSER_PROCESS = path.resolve(__dirname, '..', '..', 'workers', 'parser-process.js');

/** What reading one file gave: its text, or why there is none (and what stopped the parser, for the log). */
export type FileReading =
  | { status: 'read' | 'truncated'; text: string; html?: string; reason: string | null }
  | { status: Exclude<IntakeFileStatus, 'read' | 'truncated' | 'pending' | 'parsing'>; reason: string; failure?: ParserFailure };

/** The whole story of a stopped parser, for the log only (a stack, the child's stderr). */
export interface ParserFailure {
  reason: string;
  message: string;
  error?: { name: string; message: string; stack?: string };
  stderrTail?: string;
  ms: number;
  peakMemoryMb: number;
}

export type EntitySearch = (EntitiesFound & { ok: true }) | { ok: false; reason: string; failure: ParserFailure };

export interface BoundedParser {
  bounds: ParserBounds;
  /** The text of one file, at most max_text_mb of characters. */
  readFile(bytes: Buffer, contentType: string, signal?: AbortSignal): Promise<FileReading>;
  /** The entities of one text: short texts here, longer ones in a parser process. */
  findEntities(part: { text: string; html?: string; where: string }, signal?: AbortSignal): Promise<EntitySearch>;
}

export function parserBounds(config: AppConfig['parser']): ParserBounds {
  return { maxTextMb: config.max_text_mb, timeoutSeconds: config.timeout_seconds, maxMemoryMb: config.max_memory_mb };
}

function failureOf(outcome: Extract<IsolatedOutcome<unknown>, { ok: false }>): ParserFailure {
  return { reason: outcome.reason, message: outcome.message, error: outcome.error, stderrTail: outcome.stderrTail, ms: outcome.ms, peakMemoryMb: outcome.peakMemoryMb };
}

export function createBoundedParser(config: AppConfig['parser']): BoundedParser {
  const bounds = parserBounds(config);
  const maxChars = config.max_text_mb * 1024 * 1024;
  const limits: IsolationLimits = { timeoutMs: config.timeout_seconds * 1000, maxMemoryMb: config.max_memory_mb };
  const gate = createIsolationGate(config.max_concurrent);
  const run = <T>(request: ParserRequest, signal?: AbortSignal) => gate(() => runIsolated<T>(PARSER_PROCESS, request, limits, signal), signal);

  /** An aborted run is the activity's cancellation: it is thrown, never recorded as the file's fault. */
  const throwIfAborted = (outcome: IsolatedOutcome<unknown>, signal?: AbortSignal) => {
    if (!outcome.ok && outcome.reason === 'aborted') throw signal?.reason ?? new Error('cancelled');
  };

  return {
    bounds,
    async readFile(bytes, contentType, signal) {
      if (!TEXT_CONTENT_TYPES.has(contentType)) return { status: 'skipped', reason: noTextReason(contentType) };
      const outcome = await run<FileText | null>({ kind: 'file_text', bytes, contentType, maxChars }, signal);
      throwIfAborted(outcome, signal);
      if (outcome.ok) {
        if (!outcome.value) return { status: 'skipped', reason: noTextReason(contentType) };
        const { text, html, truncated } = outcome.value;
        return { status: truncated ? 'truncated' : 'read', text, ...(html !== undefined ? { html } : {}), reason: truncated ? truncatedReason(bounds) : null };
      }
      const failure = failureOf(outcome);
      if (outcome.reason === 'timeout' || outcome.reason === 'memory') return { status: 'skipped_too_large', reason: parserStopReason(outcome.reason, bounds), failure };
      const detail = outcome.reason === 'failed' ? outcome.error?.message : outcome.message.replace(/^the process died \(|\)$/g, '');
      return { status: 'parse_failed', reason: parserStopReason(outcome.reason === 'failed' ? 'failed' : 'crashed', bounds, detail), failure };
    },

    async findEntities(part, signal) {
      // Never more than a file's bound (texts stored before the bound existed could be longer).
      const text = part.text.length > maxChars ? part.text.slice(0, maxChars) : part.text;
      const html = part.html !== undefined && part.html.length > maxChars ? part.html.slice(0, maxChars) : part.html;
      if (text.length + (html?.length ?? 0) <= INLINE_ENTITY_CHARS) return { ok: true, ...boundedEntities(text, part.where, html, MAX_ENTITIES_PER_TEXT) };
      const outcome = await run<EntitiesFound>({ kind: 'entities', text, ...(html !== undefined ? { html } : {}), where: part.where, maxEntities: MAX_ENTITIES_PER_TEXT }, signal);
      throwIfAborted(outcome, signal);
      if (outcome.ok) return { ok: true, ...outcome.value };
      const stop = outcome.reason === 'timeout' || outcome.reason === 'memory' || outcome.reason === 'failed' ? outcome.reason : 'crashed';
      return { ok: false, reason: parserStopReason(stop, bounds, outcome.error?.message), failure: failureOf(outcome) };
    },
  };
}

