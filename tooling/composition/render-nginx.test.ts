import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptedLanguages, chooseLanguage } from '@special-gift/shared/composition';
import { NGINX_SNIPPETS, renderCompositionMaps } from './render-nginx';

describe('the nginx composition snippets', () => {
  it.each(Object.keys(NGINX_SNIPPETS))(
    'deploy/nginx/snippets/%s is what the description generates (run `npm run generate`)',
    (file) => {
      const committed = readFileSync(join(__dirname, '..', '..', 'deploy', 'nginx', 'snippets', file), 'utf8');
      expect(committed).toBe(NGINX_SNIPPETS[file as keyof typeof NGINX_SNIPPETS]());
    },
  );

  /** The Accept-Language map's regex as nginx runs it (`~*`: case-insensitive PCRE; this one is also valid JavaScript). */
  const acceptRegex = () => {
    const source = /"~\*(\^\(\?:\[\^,\]\*,\)\*\?.*)" \$sg_accept;/.exec(renderCompositionMaps())?.[1];
    if (!source) throw new Error('no Accept-Language map in the snippet');
    return new RegExp(source, 'i');
  };

  it.each([
    'fr-CA,fr;q=0.9,en;q=0.8',
    'de-DE, AR-eg;q=0.7, en;q=0.5',
    'es, en-US;q=0.9',
    'fr;q=0, ar;q=0.5',
    'fr;q=0.0, en',
    'enx, fra, ar',
    '*',
    'de',
    'EN',
    ' fr-CH , en ',
    'en;q=0.000, fr;q=0.001',
  ])('picks the same language from Accept-Language "%s" as the Node composer', (header) => {
    const nginx = acceptRegex().exec(header)?.groups?.sg_accept?.toLowerCase() ?? 'default';
    expect(nginx).toBe(chooseLanguage(null, acceptedLanguages(header), 'default' as never));
  });
});
