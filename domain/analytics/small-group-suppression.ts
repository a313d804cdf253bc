// Small-group suppression: the one rule for every aggregate a researcher can read (the anonymized
// export, the dashboards and widgets, the entity explorer's loss figures). A figure is shown only
// when it rests on at least `minVictims` distinct victims (SVC_EXPORTS__MIN_GROUP_SIZE); otherwise a
// group of one or two victims would hand out their exact loss or the fact that they reported.
//
// A victim is one report of harm: each intake is one victim, and a case counts as one victim only
// when no intake is attached to it (then the case stands for its own report); a case with attached
// intakes counts as those intakes. Counting cases instead would count one victim twice when an
// intake sits in two cases (too little suppression), and counting entities (as before) let six
// values mentioned by one victim's report pass as a group of six.

/** Whether a figure resting on `victims` distinct victims may be shown, `minVictims` being the threshold (0 or 1: always). */
export function showsFigure(victims: number, minVictims: number): boolean {
  return victims >= minVictims;
}

/** The groups that may be shown and how many were left out, in their order. */
export function suppressSmallGroups<T>(groups: readonly T[], victimsOf: (g: T) => number, minVictims: number): { kept: T[]; suppressed: number } {
  const kept = groups.filter((g) => showsFigure(victimsOf(g), minVictims));
  return { kept, suppressed: groups.length - kept.length };
}

/** A figure, or null when it rests on too few victims. */
export function suppressedFigure<T>(value: T, victims: number, minVictims: number): T | null {
  return showsFigure(victims, minVictims) ? value : null;
}

/**
 * A count of victims' reports (intakes; cases, reviews, decisions, referrals, each resting on at
 * least one victim) used as its own victim count: null when it is below the threshold, except
 * zero, which is nobody's figure.
 */
export function suppressedCount(count: number, minVictims: number): number | null {
  return count === 0 ? 0 : suppressedFigure(count, count, minVictims);
}

/** The activity metrics that count victims' reports (the others count investigations, sightings, entities). */
export const VICTIM_REPORT_METRICS: ReadonlySet<string> = new Set(['intakes', 'cases', 'reviews', 'decisions', 'referrals']);
