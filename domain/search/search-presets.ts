// Built-in searches shipped with the platform, offered as one-click presets in the console. Each is
// a query in the platform's query language (the same parser checks them; a unit test runs every one
// through it). The language has no relative dates, so "this week" is resolved here, against `now`,
// to an absolute UTC day.
import type { SearchRecordType } from './search-fields';

export interface SearchPreset {
  id: string;
  name: string;
  description: string;
  query: string;
  types: SearchRecordType[];
  sort: 'relevance' | 'newest';
}

/** The UTC day `days` before `now`, as YYYY-MM-DD. */
function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

export function searchPresets(now: Date): SearchPreset[] {
  const week = daysAgo(now, 7);
  const month = daysAgo(now, 30);
  return [
    {
      id: 'wallets-3-sources',
      name: 'Wallets seen in 3+ sources',
      description: 'Wallet entities that three or more sources (cases, intakes, investigations, feeds) mentioned.',
      query: 'type:wallet sightings>=3',
      types: ['entity'],
      sort: 'relevance',
    },
    {
      id: 'high-risk-this-week',
      name: 'High-risk entities this week',
      description: 'Entities first seen in the last 7 days with a risk score of 70 or more.',
      query: `risk>=70 created>=${week}`,
      types: ['entity'],
      sort: 'newest',
    },
    {
      id: 'open-urgent-cases',
      name: 'Open high-priority cases',
      description: 'Cases not closed whose priority is high or critical.',
      query: 'NOT status:closed (priority:high OR priority:critical)',
      types: ['case'],
      sort: 'newest',
    },
    {
      id: 'large-losses-30d',
      name: 'Losses over 10,000 in the last 30 days',
      description: 'Cases and intakes created in the last 30 days that record a loss above 10,000 (any currency).',
      query: `loss>10000 created>=${month}`,
      types: ['case', 'intake'],
      sort: 'newest',
    },
    {
      id: 'confident-indicators',
      name: 'Confident amber and red indicators',
      description: 'Indicators marked TLP amber or red with a confidence of 70 or more.',
      query: 'confidence>=70 (tlp:amber OR tlp:red)',
      types: ['indicator'],
      sort: 'newest',
    },
    {
      id: 'crypto-investment-cases',
      name: 'Crypto-investment cases',
      description: 'Cases classified under the investment/crypto branch of the scam taxonomy.',
      query: 'taxonomy:investment/crypto/*',
      types: ['case'],
      sort: 'newest',
    },
  ];
}
