// The dossier manifest: one JSON document that lists every artifact with its SHA-256 and size.
// Its exact bytes are stored and signed; verification compares them byte for byte (no
// re-serialization), so the key order here is fixed once and for all. Pure functions.
import { createHash } from 'node:crypto';

export const DOSSIER_MANIFEST_FORMAT = 'fip-dossier-manifest/1';

export interface ManifestArtifact {
  name: string;
  sha256: string;
  bytes: number;
  content_type: string;
  source: { kind: string; id: string };
}

export interface DossierManifest {
  format: typeof DOSSIER_MANIFEST_FORMAT;
  plan_id: string;
  title: string;
  case_id: string | null;
  created: string;
  software: { name: string; version: string };
  artifacts: ManifestArtifact[];
}

/** The manifest's bytes: artifacts sorted by name, two-space JSON, a final newline. */
export function serializeManifest(m: Omit<DossierManifest, 'format'>): string {
  const artifacts = [...m.artifacts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((a) => ({ name: a.name, sha256: a.sha256, bytes: a.bytes, content_type: a.content_type, source: { kind: a.source.kind, id: a.source.id } }));
  const doc: DossierManifest = {
    format: DOSSIER_MANIFEST_FORMAT,
    plan_id: m.plan_id,
    title: m.title,
    case_id: m.case_id,
    created: m.created,
    software: { name: m.software.name, version: m.software.version },
    artifacts,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function manifestDigest(manifest: string): string {
  return createHash('sha256').update(manifest, 'utf8').digest('hex');
}

/** The artifacts a stored manifest lists (name → sha256), or null when it is not a dossier manifest. */
export function manifestArtifacts(manifest: string): Map<string, ManifestArtifact> | null {
  try {
    const doc = JSON.parse(manifest) as Partial<DossierManifest>;
    if (doc.format !== DOSSIER_MANIFEST_FORMAT || !Array.isArray(doc.artifacts)) return null;
    return new Map(doc.artifacts.map((a) => [a.name, a]));
  } catch {
    return null;
  }
}
