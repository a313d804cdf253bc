// Finds the `temporal` CLI binary, fastest source first: TEMPORAL_CLI_PATH; `temporal` on PATH; the
// cache directory (~/.cache/fip/temporal-<version>); a download of the released binary into that
// cache (seconds; a few seconds to give up without internet); else, when Go is installed, builds it
// once into that cache with `go install` (minutes; progress is printed). Says which one it used.
// Returns null when none of these works, so the caller can fall back to the Temporal SDK's own
// download of the dev server.
import { goToolCacheDir, locateGoTool, type GoTool, type LocatedTool, type Progress } from './go-tool';
import { downloadReleaseBinary } from './release-download';

export type { Progress } from './go-tool';

/**
 * One version for both sources, so a download and a Go build give the same CLI (the release's is
 * stripped and reports "1.5.1"; a go-installed one reports "0.0.0-DEV") and share one cache
 * directory. Later tags cannot be go-installed, which is what keeps it at 1.5.1.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';

/**
 * Where the Temporal SDKs' own dev-server download gets the CLI: temporal.download answers
 * `/cli/<version>?platform=&arch=&format=tar.gz` with this CDN copy of the GitHub release
 * (`<base>/v<version>/temporal_cli_<version>_<os>_<arch>.tar.gz`, beside the release's
 * checksums.txt). TEMPORAL_CLI_DOWNLOAD_URL replaces the base with a mirror of that layout (the
 * GitHub release URL works too).
 */
export const TEMPORAL_CLI_DOWNLOAD_BASE = 'https://temporal.download/assets/temporalio/cli/releases/download';

/**
 * SHA-256 of the 1.5.1 release archives, as listed in the release's checksums.txt. Pinned, so the
 * default source cannot hand out another binary, as go.sum does for the Go build. A mirror named
 * by TEMPORAL_CLI_DOWNLOAD_URL is checked against its own checksums.txt instead: whoever sets the
 * variable chooses the binary, as with TEMPORAL_CLI_PATH.
 */
const RELEASE_SHA256: Record<string, string> = {
  linux_amd64: 'ddc95e08b0b076efd4ea9733a3f488eb7d2be875f8834e616cd2a37358b4852d',
  linux_arm64: 'bd1b0db9f18b051026de8bf6cc1505f2510f14bbb7a8b9a4a91fff46c77454f5',
  darwin_amd64: 'bbb73e2a31135abe50a1f1cdb35030c42961df618e8ce9c60ae89f201540c5d9',
  darwin_arm64: 'cca01b7ea35ad56e2a328d9ae596bf716bd22313ef63c7a761c88354457c2415',
};

/** The release's name for this platform ("linux_amd64"), or null when there is no release archive for it. */
export function temporalReleasePlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | null {
  const os = platform === 'linux' || platform === 'darwin' ? platform : null;
  const cpu = arch === 'x64' ? 'amd64' : arch === 'arm64' ? 'arm64' : null;
  return os && cpu ? `${os}_${cpu}` : null;
}

export function temporalArchiveName(releasePlatform: string): string {
  return `temporal_cli_${TEMPORAL_CLI_VERSION}_${releasePlatform}.tar.gz`;
}

async function downloadTemporalCli(target: string, progress: Progress): Promise<string | null> {
  const platform = temporalReleasePlatform();
  if (!platform) {
    progress(`no Temporal CLI release archive for ${process.platform}/${process.arch}`);
    return null;
  }
  const mirror = process.env.TEMPORAL_CLI_DOWNLOAD_URL;
  const release = `${(mirror || TEMPORAL_CLI_DOWNLOAD_BASE).replace(/\/+$/, '')}/v${TEMPORAL_CLI_VERSION}`;
  const url = `${release}/${temporalArchiveName(platform)}`;
  const ok = await downloadReleaseBinary(
    {
      label: 'the Temporal CLI',
      url,
      sha256: mirror ? { checksumsUrl: `${release}/checksums.txt` } : { pinned: RELEASE_SHA256[platform] },
      entry: 'temporal',
      target,
      check: { args: ['--version'], expect: new RegExp(`^temporal version ${TEMPORAL_CLI_VERSION.replace(/\./g, '\\.')}\\b`, 'm') },
    },
    progress,
  );
  return ok ? url : null;
}

const TEMPORAL_CLI: GoTool = {
  label: 'the Temporal CLI',
  binary: 'temporal',
  goPackage: `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
  cacheName: `temporal-${TEMPORAL_CLI_VERSION}`,
  envVar: 'TEMPORAL_CLI_PATH',
  buildCost: 'a few minutes',
  download: downloadTemporalCli,
};

export function temporalCacheDir(): string {
  return goToolCacheDir(TEMPORAL_CLI.cacheName);
}

/** The CLI and where it came from (also said in a progress line); null when there is none and no way to get one. */
export async function resolveTemporalCli(explicitPath: string | undefined, progress: Progress): Promise<LocatedTool | null> {
  const found = await locateGoTool(TEMPORAL_CLI, explicitPath, progress);
  if (found) progress(`Temporal CLI: ${found.path} (${found.source})`);
  return found;
}
