// LEA referrals: the status machine of a case handed to a law-enforcement agency (pure).
//
//   (none) ──> draft ──> submitted ──> acknowledged ──> closed
//                │            │                          ^
//                └────────────┴──────────────────────────┘   (withdrawn or declined: closed)
//
// draft → submitted | closed; submitted → acknowledged | closed; acknowledged → closed;
// closed is final. A referral is created as a draft (a refer_to_lea decision creates one too).
export const LEA_REFERRAL_STATUSES = ['draft', 'submitted', 'acknowledged', 'closed'] as const;
export type LeaReferralStatus = (typeof LEA_REFERRAL_STATUSES)[number];

export const LEA_REFERRAL_TRANSITIONS: Readonly<Record<LeaReferralStatus, readonly LeaReferralStatus[]>> = {
  draft: ['submitted', 'closed'],
  submitted: ['acknowledged', 'closed'],
  acknowledged: ['closed'],
  closed: [],
};

/** The statuses a referral may take next; from no referral at all, only `draft`. */
export function allowedReferralStatuses(from: LeaReferralStatus | null): readonly LeaReferralStatus[] {
  return from === null ? ['draft'] : LEA_REFERRAL_TRANSITIONS[from];
}

/** True when `to` is a legal next status, or the same status (an update of the other fields) unless closed. */
export function canSetReferralStatus(from: LeaReferralStatus | null, to: LeaReferralStatus): boolean {
  if (from !== null && from === to) return from !== 'closed';
  return allowedReferralStatuses(from).includes(to);
}
