// Signals into an investigation's workflow (`ssi-<scan_id>`) from outside: a verification mail that
// reached its persona (the inbound SMTP receiver) and a human's answer to the agent's question (the
// guidance route). Senders import these definitions; the workflow sets their handlers.
import { defineSignal } from '@temporalio/workflow';
import type { GuidanceAnswer, PersonaMailSignal } from '../../domain/investigations/funnel';

export const personaMailSignal = defineSignal<[PersonaMailSignal]>('personaMail');
export const guidanceAnswerSignal = defineSignal<[GuidanceAnswer]>('guidanceAnswer');
