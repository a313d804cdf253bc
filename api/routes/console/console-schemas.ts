// Request schemas of the console's routes: the client-side routes of the single-page app and its
// asset file names.
import path from 'node:path';
import { z } from 'zod';

/** The console's top-level views (console/src/App.tsx declares the same routes). */
export const CONSOLE_VIEWS = [
  'investigations', 'wallets', 'intakes', 'cases', 'reviews', 'reports', 'dashboard', 'search', 'entities', 'sign-in',
  'graph', 'campaigns', 'taxonomy', 'indicators', 'exports', 'dossiers', 'admin', 'takedowns', 'alerts', 'watchlists', 'suggestions', 'referrals',
] as const;

/** The content type of each kind of asset file the console bundle holds. */
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'application/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.ico': 'image/x-icon',
};
const AssetName = z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/).refine((f) => !f.startsWith('.') && path.extname(f) in ASSET_TYPES, 'an asset file name (.js, .css, .svg, .png, .woff2, .ico)');
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an identifier (letters, digits, "-" and "_")');

export const ViewParams = z.object({ view: z.enum(CONSOLE_VIEWS) });
export const ViewIdParams = z.object({ view: z.enum(CONSOLE_VIEWS), id: Id });
/** The third segment is a tab or a sub-view of the page (the console answers its own "not found" for an unknown one). */
export const ViewIdTabParams = z.object({ view: z.enum(CONSOLE_VIEWS), id: Id, tab: Id });
export const AssetParams = z.object({ file: AssetName });
