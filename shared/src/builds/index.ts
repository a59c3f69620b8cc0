// A release's wire formats (`@special-gift/shared/builds`): a remote's name, a build's id and the
// `Sg-Builds` value that names the build of each released remote a page is composed with. The one
// place that spells, parses and prints them: the API (snapshot, page tokens, preview cookies,
// requests), the host, the Node composer, the nginx generator and the release CLI all use these.
// Pure (no DOM, no Node), so the browser and Node import the same rules.
//
// Grammar (ABNF, RFC 5234):
//   sg-builds = [ pair *31( "," pair ) ]   ; sorted by remote, each remote once; empty: none released
//   pair      = remote "=" build-id
//   remote    = %x61-7A *31( %x61-7A / DIGIT / "-" )   ; a-z, then up to 31 of a-z 0-9 -
//   build-id  = 12( DIGIT / %x61-66 )                  ; lower-case hex: the first 12 digits of the
//                                                      ; SHA-256 over the build's files (release CLI)
// e.g. `intro=0123456789ab,signup=ba9876543210`. It travels as the API's `Sg-Builds` header, on the
// page's `<html data-sg-builds>` and inside a page token.

/** The header the API's snapshot answers it in, and the page-token request sends it in. */
export const SG_BUILDS_HEADER = 'Sg-Builds';
/** At most this many remotes in one value. */
export const MAX_PAGE_BUILDS = 32;

/** `remote` and `build-id` of the grammar, unanchored, to compose into other patterns (nginx, forms, tokens). */
export const REMOTE_NAME_SOURCE = '[a-z][a-z0-9-]{0,31}';
export const BUILD_ID_SOURCE = '[0-9a-f]{12}';
/** `sg-builds` of the grammar, unanchored and without groups; it may match the empty string. */
export const PAGE_BUILDS_SOURCE = `(?:${REMOTE_NAME_SOURCE}=${BUILD_ID_SOURCE}(?:,${REMOTE_NAME_SOURCE}=${BUILD_ID_SOURCE}){0,${MAX_PAGE_BUILDS - 1}})?`;

export const REMOTE_NAME_PATTERN = new RegExp(`^${REMOTE_NAME_SOURCE}$`);
export const BUILD_ID_PATTERN = new RegExp(`^${BUILD_ID_SOURCE}$`);
/** A whole `Sg-Builds` value, strictly (order and duplicates aside: {@link formatPageBuilds} prints them sorted). */
export const PAGE_BUILDS_PATTERN = new RegExp(`^${PAGE_BUILDS_SOURCE}$`);

/**
 * The builds a value names, by remote. Lenient, as a page's reader must be: a malformed pair is left
 * out (and the remote then runs the build its origin serves), as is all of a missing value.
 */
export function parsePageBuilds(value: string | null | undefined): Record<string, string> {
  const builds: Record<string, string> = {};
  if (!value) return builds;
  for (const pair of value.split(',')) {
    const [remote = '', build = '', ...rest] = pair.split('=');
    if (rest.length === 0 && REMOTE_NAME_PATTERN.test(remote) && BUILD_ID_PATTERN.test(build)) builds[remote] = build;
  }
  return builds;
}

/** The value for these builds: pairs sorted by remote, comma-separated; empty for none. Refuses what the grammar does not allow. */
export function formatPageBuilds(builds: Readonly<Record<string, string>>): string {
  const remotes = Object.keys(builds).sort();
  if (remotes.length > MAX_PAGE_BUILDS) throw new Error(`At most ${MAX_PAGE_BUILDS} remotes, not ${remotes.length}.`);
  return remotes
    .map((remote) => {
      const build = builds[remote] ?? '';
      if (!REMOTE_NAME_PATTERN.test(remote) || !BUILD_ID_PATTERN.test(build))
        throw new Error(`"${remote}=${build}" is not a remote name and a build id.`);
      return `${remote}=${build}`;
    })
    .join(',');
}

export { IMMUTABLE, parseS3Location, s3ClientConfig, type S3ClientSettings, type S3Location } from './s3';
