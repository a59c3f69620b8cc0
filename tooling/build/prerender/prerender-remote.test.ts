import {
  CONTRACT_VERSION,
  useShell,
  useShellConfig,
  useTranslation,
  type RemoteScreenModule,
} from '@special-gift/shared';
import { createElement, useId } from 'react';
import { fragmentHead, prerenderScreen, screenAssets } from './prerender-remote';

const TEXTS: Record<string, { title: string }> = {
  en: { title: 'Hello' },
  fr: { title: 'Bonjour' },
  ar: { title: 'مرحبا' },
};

function Screen() {
  const { t } = useTranslation('demo');
  const id = useId();
  const shell = useShell();
  return createElement(
    'h1',
    { id, 'data-path': shell.navigation.location().pathname, 'data-back': String(shell.navigation.canGoBack()) },
    t('title'),
  );
}
const demo = (component: () => React.ReactElement): RemoteScreenModule => ({
  default: component,
  meta: { contractVersion: CONTRACT_VERSION, namespace: 'demo' },
});

describe('prerenderScreen', () => {
  it("renders the screen's first state in the language, from its own texts, marked with its remote and language", async () => {
    const html = await prerenderScreen({
      remote: 'intro',
      module: demo(Screen),
      language: 'ar',
      texts: (language) => TEXTS[language],
      route: '/',
    });
    expect(html).toMatch(
      /^<div data-sg-screen="intro" data-sg-lang="ar"><h1 id="_sg-screen-[^"]+" data-path="\/" data-back="false">مرحبا<\/h1><\/div>$/,
    );
  });

  it('falls back to the English text of a key the language lacks, as the app does', async () => {
    const html = await prerenderScreen({
      remote: 'intro',
      module: demo(Screen),
      language: 'fr',
      texts: (language) => (language === 'fr' ? {} : TEXTS[language]),
      route: '/',
    });
    expect(html).toContain('>Hello</h1>');
  });

  it('fails the build of a screen that reads the runtime config while rendering: the deployment is not known yet', async () => {
    function ReadsConfig() {
      return createElement('a', { href: useShellConfig().siteBase }, 'site');
    }
    await expect(
      prerenderScreen({
        remote: 'thankyou',
        module: demo(ReadsConfig),
        language: 'en',
        texts: () => ({}),
        route: '/thank-you',
      }),
    ).rejects.toThrow('The runtime config (siteBase) is not available while prerendering');
  });
});

describe('the fragment head', () => {
  const manifest = {
    exposes: [
      {
        path: './Screen',
        assets: {
          js: { sync: ['__federation_expose_Screen.1234abcd.js'], async: ['99.aaaa1111.js'] },
          css: { sync: ['__federation_expose_Screen.5678abcd.css'], async: [] },
        },
      },
    ],
  };

  it("links the screen's own stylesheet through the host; no script preload (a hung one would hold Try again)", () => {
    expect(fragmentHead(screenAssets(manifest))).toBe(
      '<link rel="stylesheet" href="<!--# echo var="sg_screen_files" -->/__federation_expose_Screen.5678abcd.css">',
    );
  });

  it('refuses a manifest without the screen', () => {
    expect(() => screenAssets({ exposes: [] })).toThrow('no ./Screen expose');
  });
});
