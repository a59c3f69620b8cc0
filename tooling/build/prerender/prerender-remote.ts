/**
 * A remote's prerender step, run after its production build (`npm run build -w remote-x`): renders
 * the exposed screen's initial state (no user data) in every language with React's `prerender`, and
 * writes each as an HTML fragment beside remoteEntry.js (`prerender/v<major>/<lang>.html`), led by
 * the link to the screen's stylesheet (from mf-manifest.json). The host's page composer
 * puts the fragment in the page; the host hydrates it once the screen's code has arrived.
 *
 *   node --require ../tooling/build/prerender/ignore-styles.cjs --import tsx ../tooling/build/prerender/prerender-remote.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  FALLBACK_LANGUAGE,
  isRemoteScreenModule,
  SUPPORTED_LANGUAGES,
  type Language,
  type RemoteScreenModule,
} from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_ID_PREFIX, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import { RENDERING_I18N_OPTIONS, ScreenRoot } from '@special-gift/shared/host';
import i18next from 'i18next';
import { createElement, type ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { fragmentFile, SCREEN_FILES_ECHO } from '../../composition/composition';
import { REMOTES } from '../../remotes';
import { createPrerenderShell } from './prerender-shell';

interface ExposeAssets {
  js: string[];
  css: string[];
}

/** The exposed screen's own files (not the lazy chunks it may load later), from the build's manifest. */
export function screenAssets(manifest: unknown): ExposeAssets {
  const exposes =
    (
      manifest as {
        exposes?: Array<{ path?: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }>;
      }
    ).exposes ?? [];
  const screen = exposes.find((expose) => expose.path === './Screen');
  if (!screen?.assets) throw new Error('mf-manifest.json lists no ./Screen expose');
  return { js: screen.assets.js?.sync ?? [], css: screen.assets.css?.sync ?? [] };
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The links that lead a fragment: the screen's CSS, which holds the HTML that follows until it is
 * there, through the host (bounded: see SCREEN_FILES_PREFIX). Its script is not preloaded: the
 * federation runtime would join that request, and one that hangs would then hold every Try again.
 */
export function fragmentHead(assets: ExposeAssets): string {
  return assets.css
    .map((name) => `<link rel="stylesheet" href="${SCREEN_FILES_ECHO}/${escapeAttribute(name)}">`)
    .join('');
}

async function renderToHtml(node: ReactNode): Promise<string> {
  // Any error fails the build: React would otherwise ship a failed part's fallback in the HTML.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(node, {
    identifierPrefix: SCREEN_ID_PREFIX,
    onError(error) {
      errors.push(error);
    },
  });
  if (errors.length > 0) throw errors[0];
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    prelude
      .pipe(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** One language's fragment: the screen as its first render in that language shows it. */
export async function prerenderScreen(options: {
  remote: string;
  module: RemoteScreenModule;
  language: Language;
  texts: (language: Language) => unknown;
  route: string;
}): Promise<string> {
  const { remote, module, language, texts, route } = options;
  const namespace = module.meta.namespace;
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    ...RENDERING_I18N_OPTIONS,
    lng: language,
    ns: [namespace],
    defaultNS: namespace,
    resources: {
      [language]: { [namespace]: texts(language) },
      [FALLBACK_LANGUAGE]: { [namespace]: texts(FALLBACK_LANGUAGE) },
    } as never,
    react: { useSuspense: true },
  });
  const Screen = module.default;
  const html = await renderToHtml(
    createElement(ScreenRoot, {
      shell: createPrerenderShell({ route, language }),
      i18n,
      children: createElement(Screen),
    }),
  );
  const attributes = `${SCREEN_ATTRIBUTE}="${remote}" ${SCREEN_LANGUAGE_ATTRIBUTE}="${language}"`;
  return `<div ${attributes}>${html}</div>`;
}

async function main() {
  const appDir = process.cwd();
  const dist = join(appDir, 'dist');
  const manifest = JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8')) as { name?: string };
  // By its federation name, so a copy of a remote (a variant built by the browser suite) is found too.
  const remote = REMOTES.find((entry) => entry.name === manifest.name);
  if (!remote)
    throw new Error(
      `${appDir} builds "${String(manifest.name)}", which is not a remote in tooling/remotes/remotes.json`,
    );
  const head = fragmentHead(screenAssets(manifest));
  const module: unknown = await import(join(appDir, 'src', 'exposed-screen.ts'));
  // A CommonJS-compiled module arrives as its exports under `default` when imported.
  const exposed = isRemoteScreenModule(module) ? module : (module as { default?: unknown }).default;
  if (!isRemoteScreenModule(exposed))
    throw new Error(`${remote.dir}/src/exposed-screen.ts does not export a screen module`);
  const texts = (language: Language): unknown =>
    JSON.parse(readFileSync(join(appDir, 'public', 'assets', 'i18n', `${language}.json`), 'utf8'));
  for (const language of SUPPORTED_LANGUAGES) {
    // Under the contract major the screen's code declares: a host of another major never composes it.
    const file = join(dist, fragmentFile(exposed.meta.contractVersion, language));
    mkdirSync(join(file, '..'), { recursive: true });
    const body = await prerenderScreen({ remote: remote.name, module: exposed, language, texts, route: remote.route });
    writeFileSync(file, `${head}${body}\n`);
    console.log(
      `prerendered ${remote.name} ${language}: ${file.slice(appDir.length + 1)} (${Buffer.byteLength(head + body)} B)`,
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
