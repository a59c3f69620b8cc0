import { acceptedLanguages, chooseLanguage, textDirection } from './choose-language';

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

describe('acceptedLanguages', () => {
  it('lists the tags in the order sent, without those refused (q=0) and the wildcard', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(acceptedLanguages('fr;q=0, ar;q=0.5')).toEqual(['ar']);
    expect(acceptedLanguages('en;q=0.000, fr;q=0.001')).toEqual(['fr']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('')).toEqual([]);
  });

  it('feeds chooseLanguage as navigator.languages does in the browser', () => {
    expect(chooseLanguage(null, acceptedLanguages('de-DE,ar;q=0.8,en;q=0.5'), 'en')).toBe('ar');
    expect(chooseLanguage('fr', acceptedLanguages('ar'), 'en')).toBe('fr');
  });
});

describe('textDirection', () => {
  it('is right-to-left for Arabic only', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('fr')).toBe('ltr');
    expect(textDirection('en')).toBe('ltr');
  });
});
