import { PAGE_BUILDS_ATTRIBUTE, PAGE_TOKEN_PATH } from '@special-gift/shared/composition';
import { PAGE_TOKEN_PATTERN } from '@special-gift/shared/telemetry';

/**
 * The page's token (docs/telemetry.md, "Signed page views"), asked of the host once for the builds
 * the page was composed with (`<html data-sg-builds>`): the host signs one only for the builds this
 * browser's bucket gets now. None (undefined) for a page that is not composed, a host with no key,
 * a preview, builds no longer served, an address past its allowance, or no network: the batch is
 * then unsigned. Nothing of the user's goes with it: the page's builds and the host's own cookies.
 */
export async function fetchPageToken(
  page: Document,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<string | undefined> {
  const builds = page.documentElement.getAttribute(PAGE_BUILDS_ATTRIBUTE);
  if (builds === null) return undefined;
  try {
    const response = await fetchImpl(PAGE_TOKEN_PATH, {
      headers: { 'sg-builds': builds },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (response.status !== 200) return undefined;
    const token = await response.text();
    return PAGE_TOKEN_PATTERN.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}
