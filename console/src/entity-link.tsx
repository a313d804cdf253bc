// Every entity value is a link to its entity page: by the entity's id when the API gave one (every
// role may open /intelligence/entities/{id}), otherwise by its type and value
// (/intelligence/entities/{type}/{value}, which the API resolves to the entity, normalizing the
// value as the graph stores it). The text is exactly what the API answered: masked per role by the
// API, never unmasked here.
import type { ReactNode } from 'react';
import { Link } from './router';

export const ENTITY_TYPES = ['wallet', 'domain', 'url', 'ip', 'email', 'phone', 'bank_account', 'person', 'organization', 'social_handle'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const TYPE_LABELS: Record<string, string> = {
  wallet: 'Wallet', domain: 'Domain', url: 'URL', ip: 'IP address', email: 'E-mail', phone: 'Phone', bank_account: 'Bank account',
  person: 'Person', organization: 'Organization', social_handle: 'Handle',
};

/** The entity type of a contact-data kind as investigations and intakes name them (pii kinds). */
export function entityTypeOf(kind: string): EntityType | null {
  const k = kind.toLowerCase().replace(/[\s-]+/g, '_');
  if ((ENTITY_TYPES as readonly string[]).includes(k)) return k as EntityType;
  if (k === 'iban' || k === 'bank' || k === 'account') return 'bank_account';
  if (k === 'handle' || k === 'telegram' || k === 'whatsapp' || k === 'social') return 'social_handle';
  if (k === 'phone_number' || k === 'tel') return 'phone';
  if (k === 'e_mail' || k === 'mail') return 'email';
  return null;
}

/** The console path of an entity's page. */
export function entityPath(e: { id?: string | null; type: string; value: string }): string {
  return e.id ? `/entities/${e.id}` : `/entities?type=${encodeURIComponent(e.type)}&value=${encodeURIComponent(e.value)}`;
}

export function EntityLink({ id, type, value, children, showType = false }: { id?: string | null; type: string; value: string; children?: ReactNode; showType?: boolean }) {
  return (
    <>
      {showType && <span className="badge entity-type">{TYPE_LABELS[type] ?? type}</span>}{showType && ' '}
      <Link to={entityPath({ id, type, value })} className="entity" data-entity-type={type} title={`Open the ${TYPE_LABELS[type] ?? type} ${value}`}>
        {children ?? value}
      </Link>
    </>
  );
}
