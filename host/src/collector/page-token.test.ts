import { fetchPageToken } from './page-token';

const TOKEN = `${'A'.repeat(22)}.1764000000.7.signup=0123456789ab.${'m'.repeat(43)}`;

/** A document composed with these builds (`<html data-sg-builds>`), or not composed (null). */
function composedPage(builds: string | null): Document {
  const page = document.implementation.createHTMLDocument('page');
  if (builds !== null) page.documentElement.setAttribute('data-sg-builds', builds);
  return page;
}

/** A fetch that answers `status` with `body`, and keeps what it was asked. */
function host(status: number, body = '') {
  const asked: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = async (url: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(url), init });
    return { status, text: async () => body } as Response;
  };
  return { asked, fetchImpl: fetchImpl as typeof fetch };
}

describe("the page's token", () => {
  it('is asked of the host for the builds the page was composed with, never cached', async () => {
    const { asked, fetchImpl } = host(200, TOKEN);
    await expect(fetchPageToken(composedPage('signup=0123456789ab'), fetchImpl)).resolves.toBe(TOKEN);
    expect(asked).toEqual([
      {
        url: '/_sg_page_token',
        init: { headers: { 'sg-builds': 'signup=0123456789ab' }, credentials: 'same-origin', cache: 'no-store' },
      },
    ]);
  });

  it('is none when the host gives none (204), fails, or answers something that is not a token', async () => {
    await expect(fetchPageToken(composedPage(''), host(204).fetchImpl)).resolves.toBeUndefined();
    await expect(fetchPageToken(composedPage(''), host(502, TOKEN).fetchImpl)).resolves.toBeUndefined();
    await expect(fetchPageToken(composedPage(''), host(200, '<html>').fetchImpl)).resolves.toBeUndefined();
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(fetchPageToken(composedPage(''), offline)).resolves.toBeUndefined();
  });

  it('is not asked by a page that was not composed (index.html: no builds attribute)', async () => {
    const { asked, fetchImpl } = host(200, TOKEN);
    await expect(fetchPageToken(composedPage(null), fetchImpl)).resolves.toBeUndefined();
    expect(asked).toHaveLength(0);
  });
});
