// The processing steps of an intake, in order; each is an intake job with its own status and error.
export const INTAKE_STEPS = ['extract_text', 'extract_entities'] as const;
export type IntakeStep = (typeof INTAKE_STEPS)[number];
