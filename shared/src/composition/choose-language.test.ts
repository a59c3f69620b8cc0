import { chooseLanguage } from './choose-language';

describe('chooseLanguage', () => {
  it('prefers the stored choice over the browser languages', () => {
    expect(chooseLanguage('ar', ['fr-FR', 'en'], 'en')).toBe('ar');
  });

  it('ignores a stored value that is not a supported language', () => {
    expect(chooseLanguage('de', ['fr'], 'en')).toBe('fr');
    expect(chooseLanguage({ language: 'ar' }, [], 'en')).toBe('en');
    expect(chooseLanguage('AR', [], 'fr')).toBe('fr');
  });

  it('takes the first browser language it supports, matching on the primary subtag', () => {
    expect(chooseLanguage(null, ['fr-CA', 'en-US'], 'en')).toBe('fr');
    expect(chooseLanguage(null, ['de-DE', 'AR-EG', 'fr'], 'en')).toBe('ar');
  });

  it('falls back to the default when nothing matches', () => {
    expect(chooseLanguage(undefined, ['de', 'es-ES'], 'fr')).toBe('fr');
    expect(chooseLanguage(null, [], 'ar')).toBe('ar');
  });

  it('does not match a language that only starts like a supported one', () => {
    expect(chooseLanguage(null, ['enx', 'fra', 'ar_EG'], 'fr')).toBe('fr');
  });
});
