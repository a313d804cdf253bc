// The processing steps of an intake, in order; each is an intake job with its own status and error.
export const INTAKE_STEPS = ['extract_text', 'extract_entities'] as const;
export type IntakeStep = (typeof INTAKE_STEPS)[number];

/** The statuses of an intake job (one step of processing). */
export const INTAKE_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type IntakeJobStatus = (typeof INTAKE_JOB_STATUSES)[number];
