// What a check of a reported site means, pure: `down` when it no longer answers (no connection, a
// timeout, 404, 410, 451 or a server error), `changed` when it answers something other than what it
// answered when the report was made (another status or other bytes), `up` when it answers the same,
// `unknown` when it could not be asked (the egress policy refused it).
export type SiteStatus = 'up' | 'down' | 'changed' | 'unknown';

export type SiteAnswer = { kind: 'answered'; status: number; sha256: string } | { kind: 'unreachable'; error: string } | { kind: 'refused'; reason: string };

export interface SiteBaseline {
  status?: number;
  sha256?: string;
}

const GONE = new Set([404, 410, 451]);

export function siteStatusOf(answer: SiteAnswer, baseline: SiteBaseline): SiteStatus {
  if (answer.kind === 'refused') return 'unknown';
  if (answer.kind === 'unreachable') return 'down';
  if (GONE.has(answer.status) || answer.status >= 500) return 'down';
  if (baseline.sha256 === undefined) return 'up';
  return answer.status === baseline.status && answer.sha256 === baseline.sha256 ? 'up' : 'changed';
}
