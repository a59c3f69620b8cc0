import { BUILD_ID_PATTERN, formatPageBuilds, PAGE_BUILDS_PATTERN, parsePageBuilds, REMOTE_NAME_PATTERN } from '.';

describe('parsePageBuilds', () => {
  it('reads each remote and its build', () => {
    expect(parsePageBuilds('intro=0123456789ab,signup=ba9876543210')).toEqual({
      intro: '0123456789ab',
      signup: 'ba9876543210',
    });
  });

  it('is empty without a snapshot', () => {
    expect(parsePageBuilds('')).toEqual({});
    expect(parsePageBuilds(undefined)).toEqual({});
    expect(parsePageBuilds(null)).toEqual({});
  });

  it('leaves out what is not a remote name and a build id', () => {
    expect(
      parsePageBuilds(
        'intro=0123456789AB,signup=../../x,Thank=0123456789ab,ok=0123456789ab,=0123456789ab,bad,two=0123456789ab=0123456789ab',
      ),
    ).toEqual({ ok: '0123456789ab' });
  });
});

describe('formatPageBuilds', () => {
  it('prints the pairs sorted by remote, and reads back the same', () => {
    const value = formatPageBuilds({ signup: 'ba9876543210', intro: '0123456789ab' });
    expect(value).toBe('intro=0123456789ab,signup=ba9876543210');
    expect(value).toMatch(PAGE_BUILDS_PATTERN);
    expect(parsePageBuilds(value)).toEqual({ intro: '0123456789ab', signup: 'ba9876543210' });
  });

  it('is empty for no builds, which the grammar allows', () => {
    expect(formatPageBuilds({})).toBe('');
    expect('').toMatch(PAGE_BUILDS_PATTERN);
  });

  it('refuses what it could not read back', () => {
    expect(() => formatPageBuilds({ intro: '0123456789AB' })).toThrow('is not a remote name and a build id');
    expect(() => formatPageBuilds({ 'Intro,x': '0123456789ab' })).toThrow('is not a remote name and a build id');
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`r${i}`, '0123456789ab']));
    expect(() => formatPageBuilds(many)).toThrow('At most 32 remotes');
  });
});

describe('the patterns', () => {
  it('match the grammar and nothing around it', () => {
    expect(BUILD_ID_PATTERN.test('0123456789ab')).toBe(true);
    for (const id of ['0123456789a', '0123456789abc', '0123456789AB', 'image', ' 0123456789ab'])
      expect(BUILD_ID_PATTERN.test(id)).toBe(false);
    expect(REMOTE_NAME_PATTERN.test('thank-you2')).toBe(true);
    for (const name of ['2fa', 'Intro', '', 'a'.repeat(33), 'sign_up'])
      expect(REMOTE_NAME_PATTERN.test(name)).toBe(false);
    expect(PAGE_BUILDS_PATTERN.test('intro=0123456789ab,')).toBe(false);
    expect(PAGE_BUILDS_PATTERN.test(Array.from({ length: 33 }, (_, i) => `r${i}=0123456789ab`).join(','))).toBe(false);
  });
});
