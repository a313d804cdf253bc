// Request and response schemas of the MISP export and the MISP feed (services/exports/misp-service.ts).
import { z } from 'zod';

export const MispExportQuery = z.object({
  case_id: z.string().uuid().optional().describe('the case to export (exactly one of case_id and campaign_id)'),
  campaign_id: z.string().uuid().optional().describe('the campaign to export: its own entities and its cases\' (exactly one of case_id and campaign_id)'),
});

export const MispFeedEventParams = z.object({ uuid: z.string().uuid().describe('an event uuid of manifest.json') });

const MispAttributeSchema = z
  .object({ uuid: z.string(), type: z.string(), category: z.string(), value: z.string(), to_ids: z.boolean(), object_relation: z.string().optional() })
  .loose();

export const MispEventSchema = z
  .object({
    Event: z
      .object({
        uuid: z.string(),
        info: z.string(),
        date: z.string().describe('YYYY-MM-DD'),
        threat_level_id: z.string().describe('1 high, 2 medium, 3 low, 4 undefined'),
        analysis: z.string().describe('0 initial, 1 ongoing, 2 completed'),
        distribution: z.string().describe('from the TLP: 3 clear, 1 green, 0 amber and above'),
        timestamp: z.string(),
        Orgc: z.object({ name: z.string(), uuid: z.string() }),
        Tag: z.array(z.object({ name: z.string() })).describe('exactly one tlp:* tag, then the scam taxonomy (fip:scam-taxonomy="...")'),
        Attribute: z.array(MispAttributeSchema),
        Object: z.array(z.object({ uuid: z.string(), name: z.string(), Attribute: z.array(MispAttributeSchema) }).loose()),
      })
      .loose(),
  })
  .meta({ id: 'MispEvent' });

export const MispManifestSchema = z
  .record(z.string(), z.object({ Orgc: z.object({ name: z.string(), uuid: z.string() }), Tag: z.array(z.object({ name: z.string() })), info: z.string(), date: z.string(), analysis: z.number().int(), threat_level_id: z.number().int(), timestamp: z.number().int() }))
  .meta({ id: 'MispManifest' });
