import { createHash } from 'node:crypto';
import { pageBootstrapScript, pageContentSecurityPolicy, pageScriptHash, toPageTemplate } from './composition';

describe('toPageTemplate', () => {
  const INDEX =
    '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.abc.js></script></head><body><div id=root></div></body></html>';

  it("puts the page's language and the route's fragment, under the host's contract major, in the built page", () => {
    const template = toPageTemplate(INDEX, 3, '/page-loader.def.js');
    expect(template).toContain(
      '<html lang="<!--# echo var="sg_lang" -->" dir="<!--# echo var="sg_dir" -->" data-sg-builds="<!--# echo var="sg_builds" -->" data-sg-integrity="<!--# echo var="sg_integrity" -->">',
    );
    expect(template).toContain(
      '<div id="root"><!--# block name="empty" --><!--# endblock --><!--# if expr="$sg_screen" --><div class="sg-shell-page sg-shell-page--root"><!--# include virtual="/_screen/$sg_screen/v3/$sg_lang.html" stub="empty" --></div><!--# endif --></div>',
    );
  });

  it("starts the app with one inline script in the head, where the app's was: both preloaded, the loader run once parsed", () => {
    const template = toPageTemplate(INDEX, 3, '/page-loader.def.js');
    const bootstrap = pageBootstrapScript('/page-loader.def.js', '/main.abc.js');
    expect(template).toContain(`<head><title>x</title><script>${bootstrap}</script></head>`);
    expect(bootstrap).toContain("preload('/main.abc.js');preload('/page-loader.def.js');");
    expect(bootstrap).toContain("p.src='/page-loader.def.js';p.dataset.app='/main.abc.js'");
    expect(bootstrap).toContain("d.addEventListener('DOMContentLoaded',start)");
    expect(template.match(/<script/g)).toHaveLength(1);
    // Nothing per response: no nonce, no token, no variable but the page's language, builds and screen.
    expect(template).not.toMatch(/nonce|request_id|_sg_page_token/);
  });

  it("names its files in its own text, never from the page: a copy of it starts only the host's code", () => {
    expect(pageBootstrapScript('/l.1.js', '/m.2.js')).not.toMatch(
      /dataset\.(app|loader)\b(?!=)|getAttribute|querySelector|currentScript/,
    );
    expect(() => pageBootstrapScript("/l.js');evil('", '/m.js')).toThrow("not a path of the host's own files");
    expect(() => pageBootstrapScript('https://cdn.example/l.js', '/m.js')).toThrow();
  });

  it("runs the bootstrap by its hash, the page's only script source ('strict-dynamic' for what it loads)", () => {
    const template = toPageTemplate(INDEX, 3, '/page-loader.def.js');
    const hash = createHash('sha256')
      .update(pageBootstrapScript('/page-loader.def.js', '/main.abc.js'))
      .digest('base64');
    expect(pageScriptHash(template)).toBe(`'sha256-${hash}'`);
    const csp = pageContentSecurityPolicy(pageScriptHash(template), [
      'https://intro.example',
      'https://signup.example',
    ]);
    expect(csp).toContain(
      `script-src 'sha256-${hash}' 'strict-dynamic' 'self' https://intro.example https://signup.example;`,
    );
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce/);
    expect(() => pageScriptHash('<html><body></body></html>')).toThrow('exactly one inline script');
  });

  it('refuses a page it cannot compose rather than write one without the screen', () => {
    expect(() => toPageTemplate('<html><body><main></main></body></html>', 1, '/l.js')).toThrow(
      'index.html must contain',
    );
    expect(() => toPageTemplate(INDEX.replace(/<script.*<\/script>/, ''), 1, '/l.js')).toThrow(
      "the app's deferred script",
    );
  });
});
