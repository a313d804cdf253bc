// Seeding helpers of the analytics suites: unique phone numbers, IBANs, wallets and domains per
// run, and rows with chosen timestamps (the dashboards aggregate the whole database, so tests
// assert on deltas or on a time window no other suite writes to).
import { randomInt, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/** A UK drama-range number (+44 20 7946 0xxx is reserved for fiction). */
export const ukPhone = () => `+44 20 7946 0${String(randomInt(0, 1000)).padStart(3, '0')}`;

function mod97(digits: string): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  return r;
}

/** A valid German IBAN with a random account (check digits computed by ISO 13616 mod 97). */
export function germanIban(): string {
  const bban = Array.from({ length: 18 }, () => randomInt(0, 10)).join('');
  const check = 98 - mod97(`${bban}1314` + '00'); // D=13, E=14
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

export const evmWallet = () => `0x${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

export async function insertIntake(knex: Knex, over: { created_at?: Date; loss_amount?: string; loss_currency?: string; case_id?: string } = {}): Promise<string> {
  const id = randomUUID();
  await knex('intakes').insert({ id, source: 'web', summary: `analytics intake ${id.slice(0, 8)}`, submitted_by: 'analytics-test', created_at: over.created_at ?? new Date(), loss_amount: over.loss_amount ?? null, loss_currency: over.loss_currency ?? null, case_id: over.case_id ?? null });
  return id;
}

export async function insertCase(knex: Knex, over: { created_at?: Date; taxonomy?: string | null; loss_amount?: string; loss_currency?: string; campaign_id?: string; status?: string; title?: string } = {}): Promise<string> {
  const [row] = await knex('cases')
    .insert({ title: over.title ?? `analytics case ${randomUUID().slice(0, 8)}`, created_by: 'analytics-test', created_at: over.created_at ?? new Date(), taxonomy: over.taxonomy ?? null, loss_amount: over.loss_amount ?? null, loss_currency: over.loss_currency ?? null, campaign_id: over.campaign_id ?? null, status: over.status ?? 'open' })
    .returning('id');
  return (row as { id: string }).id;
}

export async function linkIntake(knex: Knex, caseId: string, intakeId: string): Promise<void> {
  await knex('case_links').insert({ case_id: caseId, target_type: 'intake', target_id: intakeId, linked_by: 'analytics-test' });
}

export async function insertInvestigation(knex: Knex, url: string): Promise<string> {
  const scanId = randomUUID();
  await knex('investigations').insert({ scan_id: scanId, url, domain: new URL(url).hostname, requested_by: 'analytics-test' });
  return scanId;
}

/** Cents of a decimal string ("1100.35" -> 110035n), for exact deltas. */
export const cents = (amount: string | undefined): bigint => {
  if (!amount) return 0n;
  const [i, f = ''] = amount.split('.');
  return BigInt(i!) * 100n + BigInt((f + '00').slice(0, 2));
};
