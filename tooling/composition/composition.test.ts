import { toPageTemplate } from './composition';

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

  it("asks for the page's token after the root, so the first screen is sent before the page waits on the API", () => {
    const template = toPageTemplate(INDEX, 3, '/page-loader.def.js');
    expect(template).toContain(
      '<!--# endif --></div><div hidden data-sg-page-token="<!--# include virtual="/_sg_page_token" stub="empty" -->"></div></body>',
    );
  });

  it('starts the app through the page loader, the app preloaded meanwhile', () => {
    const template = toPageTemplate(INDEX, 3, '/page-loader.def.js');
    expect(template).toContain(
      '<link rel="preload" href="/main.abc.js" as="script" nonce="<!--# echo var="request_id" -->"><script defer nonce="<!--# echo var="request_id" -->" src="/page-loader.def.js" data-app="/main.abc.js"></script>',
    );
    expect(template.match(/<script/g)).toHaveLength(1);
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
