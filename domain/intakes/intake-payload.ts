// The `payload` part of an intake submission (JSON). Contact fields (reporter_name, contact_email,
// contact_phone) go to the vault; everything else is evidence.
import { z } from 'zod';

export const IntakePayloadSchema = z
  .strictObject({
    summary: z.string().trim().min(1).max(2000).describe('Required: what happened, in a sentence or two'),
    details: z.string().max(200_000).default('').describe('Free text: the story, messages received, addresses and numbers the scammers used'),
    source: z.string().trim().min(1).max(100).default('unspecified').describe('Where the report came from (web form, partner name, hotline, ...)'),
    reporter_name: z.string().trim().min(1).max(200).optional().describe('Contact data (vault): the reporter\'s name'),
    contact_email: z.email().max(320).optional().describe('Contact data (vault): the reporter\'s e-mail address'),
    contact_phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ().-]{3,40}$/, 'a phone number: digits, spaces, ( ) . - and an optional leading +')
      .optional()
      .describe('Contact data (vault): the reporter\'s phone number'),
    loss_amount: z
      .union([z.number().nonnegative().max(1e15), z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'a decimal amount with at most 2 decimals')])
      .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v))
      .optional()
      .describe('Amount lost (a number or a decimal string; stored as numeric(20,2))'),
    loss_currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as EUR').optional(),
    occurred_at: z.iso.datetime({ offset: true }).optional().describe('When it happened, ISO 8601'),
    urls: z
      .array(z.url({ protocol: /^https?$/ }).max(2048))
      .max(100)
      .default([])
      .describe('Web addresses involved (scam sites, profiles)'),
  })
  .superRefine((v, ctx) => {
    if (v.loss_amount !== undefined && v.loss_currency === undefined) {
      ctx.addIssue({ code: 'custom', path: ['loss_currency'], message: 'required when loss_amount is given' });
    }
  });

export type IntakePayload = z.infer<typeof IntakePayloadSchema>;

export interface IntakeContact {
  reporter_name?: string;
  contact_email?: string;
  contact_phone?: string;
}

export function contactOf(p: IntakePayload): IntakeContact | null {
  const c: IntakeContact = {};
  if (p.reporter_name) c.reporter_name = p.reporter_name;
  if (p.contact_email) c.contact_email = p.contact_email;
  if (p.contact_phone) c.contact_phone = p.contact_phone;
  return Object.keys(c).length ? c : null;
}
