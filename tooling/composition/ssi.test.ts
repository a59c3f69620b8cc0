import { renderSsi, substitute } from './ssi';

const context = (variables: Record<string, string>, includes: Record<string, string | undefined> = {}) => ({
  variables,
  include: jest.fn(async (uri: string) => includes[uri]),
});

describe('renderSsi (the nginx SSI subset of the page template)', () => {
  it('echoes variables entity-encoded, as nginx does by default', async () => {
    expect(await renderSsi('<html lang="<!--# echo var="lang" -->">', context({ lang: 'ar' }))).toBe(
      '<html lang="ar">',
    );
    expect(await renderSsi('<!--# echo var="x" -->', context({ x: '"><script>' }))).toBe('&quot;&gt;&lt;script&gt;');
    expect(await renderSsi('<!--# echo var="missing" default="none" -->', context({}))).toBe('none');
  });

  it('prints an if block only when its variable is not empty', async () => {
    const template = 'a<!--# if expr="$screen" -->[<!--# echo var="screen" -->]<!--# endif -->b';
    expect(await renderSsi(template, context({ screen: 'intro' }))).toBe('a[intro]b');
    expect(await renderSsi(template, context({ screen: '' }))).toBe('ab');
  });

  it('includes a virtual URI with its variables substituted, and prints the stub block when the include fails', async () => {
    const template =
      '<!--# block name="empty" --><!--# endblock --><!--# block name="note" -->(none)<!--# endblock -->' +
      '<!--# include virtual="/_screen/$screen/${lang}.html" stub="empty" -->|<!--# include virtual="/gone" stub="note" -->';
    const ctx = context({ screen: 'intro', lang: 'fr' }, { '/_screen/intro/fr.html': '<p>bonjour</p>' });
    expect(await renderSsi(template, ctx)).toBe('<p>bonjour</p>|(none)');
    expect(ctx.include).toHaveBeenCalledWith('/_screen/intro/fr.html');
  });

  it('does not fetch an include inside a false if', async () => {
    const ctx = context({ screen: '' });
    await renderSsi('<!--# if expr="$screen" --><!--# include virtual="/x" stub="none" --><!--# endif -->', ctx);
    expect(ctx.include).not.toHaveBeenCalled();
  });

  it('refuses what it does not implement instead of printing it', async () => {
    await expect(renderSsi('<!--# exec cmd="ls" -->', context({}))).rejects.toThrow('unsupported directive "exec"');
    await expect(renderSsi('<!--# if expr="$a = b" --><!--# endif -->', context({}))).rejects.toThrow(
      'only if expr="$variable"',
    );
    await expect(renderSsi('<!--# if expr="$a" -->', context({}))).rejects.toThrow('unclosed');
  });

  it('leaves ordinary comments alone', async () => {
    expect(await renderSsi('<!-- a comment --><p>x</p>', context({}))).toBe('<!-- a comment --><p>x</p>');
  });

  it('substitutes $name and ${name}; an unknown variable is empty', () => {
    expect(substitute('/a/$x/${y}z/$unknown.', { x: '1', y: '2' })).toBe('/a/1/2z/.');
  });
});
