// SVC_INTAKE__AUTO_INVESTIGATE: intake processing investigates the http(s) URLs an intake names.
// The scan id is derived from the intake and the URL, so a retried step starts nothing twice.
import { createHash } from 'node:crypto';

/** At most this many URLs of one intake are investigated. */
export const MAX_AUTO_INVESTIGATIONS_PER_INTAKE = 10;

/** The scan id (a UUIDv5-shaped id) of an intake's automatic investigation of a URL: the same on every retry. */
export function autoInvestigationScanId(intakeId: string, url: string): string {
  const h = createHash('sha256').update(`intake:${intakeId}\n${url}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
