// The one seam between dossiers and the platform's evidence signing (the Ed25519 keyring, its
// manifest signatures and verifier, built on the `evidence` branch). Dossiers sign and check their
// manifest only through these two functions; wire them to the keyring when it is merged, and
// nothing else changes (no second signer or verifier lives here).
//
// Until then a dossier is sealed by its manifest digest alone: `signature` and `key_id` are null,
// and verification reports `signed: false` while still re-hashing every artifact and the manifest.
import type { AppConfig } from '../config/config';

export interface ManifestSignature {
  signature: string | null;
  key_id: string | null;
}

export interface SignatureCheck {
  signed: boolean;
  /** True when the signature verifies under key_id; null when the manifest is unsigned. */
  valid: boolean | null;
}

export async function signDossierManifest(_config: AppConfig, _manifest: string): Promise<ManifestSignature> {
  return { signature: null, key_id: null };
}

export async function checkDossierSignature(_config: AppConfig, _manifest: string, seal: ManifestSignature): Promise<SignatureCheck> {
  if (seal.signature === null) return { signed: false, valid: null };
  // A signature this build cannot check (signed by a later build with the keyring) is not valid here.
  return { signed: true, valid: false };
}
