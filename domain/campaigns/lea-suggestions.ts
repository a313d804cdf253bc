// LEA referral suggestions for a campaign: cases and investigations that share wallets, domains or
// phone numbers with the campaign's members but are not in the campaign yet (or are in it but not
// referred yet), ranked. Pure ranking over the shared evidence the repository found.

/** The entity types that link a candidate to a campaign, and how strongly one shared entity of each counts. */
export const LEA_LINK_WEIGHTS = { wallet: 3, phone: 2, domain: 1 } as const;
export type LeaLinkType = keyof typeof LEA_LINK_WEIGHTS;
export const LEA_LINK_TYPES = Object.keys(LEA_LINK_WEIGHTS) as LeaLinkType[];

export interface SharedEvidence {
  entity_id: string;
  type: LeaLinkType;
  value: string;
  /** The candidate's source that mentions the entity (the case itself, or its intake or investigation). */
  source_kind: string;
  source_id: string;
  observed_at: string;
}

export interface LeaCandidate {
  kind: 'case' | 'investigation';
  id: string;
  title: string;
  /** `not_in_campaign`: outside the campaign; `not_referred`: a member case with no LEA referral. */
  reason: 'not_in_campaign' | 'not_referred';
  evidence: SharedEvidence[];
}

export interface RankedLeaCandidate extends LeaCandidate {
  score: number;
  shared_entities: number;
}

/**
 * score = sum over the distinct shared entities of the type weight (wallet 3, phone 2, domain 1).
 * Ties: more shared entities first, then the most recent evidence, then kind and id (stable).
 */
export function rankLeaCandidates(candidates: LeaCandidate[]): RankedLeaCandidate[] {
  const ranked = candidates.map((c) => {
    const distinct = new Map(c.evidence.map((e) => [e.entity_id, e.type]));
    const score = [...distinct.values()].reduce((s, t) => s + LEA_LINK_WEIGHTS[t], 0);
    const latest = c.evidence.reduce((m, e) => (e.observed_at > m ? e.observed_at : m), '');
    return { ...c, score, shared_entities: distinct.size, latest };
  });
  ranked.sort((a, b) => b.score - a.score || b.shared_entities - a.shared_entities || (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : 0) || a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
  return ranked.map(({ latest: _latest, ...c }) => c);
}

/** A referral in one of these statuses means the case has been handed over (closed: handled, withdrawn or declined). */
export const REFERRED_STATUSES: readonly string[] = ['submitted', 'acknowledged', 'closed'];

export interface LeaHit {
  candidate_kind: 'case' | 'investigation';
  candidate_id: string;
  title: string;
  candidate_campaign_id: string | null;
  referral_status: string | null;
  entity_id: string;
  type: LeaLinkType;
  value: string;
  source_kind: string;
  source_id: string;
  observed_at: string;
  /** The member cases through which the entity belongs to the campaign (null: the campaign's own entity list). */
  owners: ReadonlyArray<string | null>;
}

/**
 * Candidates from the places the campaign's entities appear:
 * - a case outside the campaign, or an investigation in no case: `not_in_campaign`, with every shared entity;
 * - a member case without a referral (or with a draft): `not_referred`, with the entities it shares
 *   with the rest of the campaign (another member case or the campaign's own entity list).
 * Referred member cases are left out.
 */
export function leaCandidatesFromHits(campaignId: string, hits: readonly LeaHit[]): LeaCandidate[] {
  const byCandidate = new Map<string, LeaCandidate>();
  for (const h of hits) {
    const member = h.candidate_kind === 'case' && h.candidate_campaign_id === campaignId;
    if (member && h.referral_status !== null && REFERRED_STATUSES.includes(h.referral_status)) continue;
    if (member && !h.owners.some((o) => o !== h.candidate_id)) continue;
    const key = `${h.candidate_kind}:${h.candidate_id}`;
    let c = byCandidate.get(key);
    if (!c) {
      c = { kind: h.candidate_kind, id: h.candidate_id, title: h.title, reason: member ? 'not_referred' : 'not_in_campaign', evidence: [] };
      byCandidate.set(key, c);
    }
    if (!c.evidence.some((e) => e.entity_id === h.entity_id && e.source_kind === h.source_kind && e.source_id === h.source_id)) {
      c.evidence.push({ entity_id: h.entity_id, type: h.type, value: h.value, source_kind: h.source_kind, source_id: h.source_id, observed_at: h.observed_at });
    }
  }
  return [...byCandidate.values()];
}
