// A position in the indicator changes (the partner feed and the TAXII indicator and wallet
// collections page with it: db/repositories/exports/feed-repository.ts explains why it is the
// writing transaction's id and the revision), and the opaque cursor that carries it to the client.

export interface FeedPosition {
  /** write_xid (xid8) as decimal text. */
  xid: string;
  /** revision (bigint) as decimal text. */
  revision: string;
}

export const FEED_POSITION_PATTERN = /^\d{1,20}$/;

export function encodeFeedCursor(p: FeedPosition | null): string | null {
  return p ? Buffer.from(JSON.stringify([p.xid, p.revision]), 'utf8').toString('base64url') : null;
}

export function decodeFeedCursor(cursor: string): FeedPosition | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string' && FEED_POSITION_PATTERN.test(x))) {
      return { xid: v[0] as string, revision: v[1] as string };
    }
  } catch {
    // fall through
  }
  return null;
}
