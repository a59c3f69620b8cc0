import { normalizePhone } from './phone';

describe('normalizePhone', () => {
  it('keeps a number already in E.164', () => {
    expect(normalizePhone('+441234567890')).toBe('+441234567890');
  });

  it('strips spaces, dashes, dots and parentheses', () => {
    expect(normalizePhone('+44 (0)20-7946.0958')).toBe('+4402079460958');
    expect(normalizePhone(' +1 (555) 010-9999 ')).toBe('+15550109999');
    expect(normalizePhone('+31\t6\u00a012345678')).toBe('+31612345678');
  });

  it('turns a leading 00 into +', () => {
    expect(normalizePhone('0044 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('00-49-30-123456')).toBe('+4930123456');
  });

  it('accepts 8 and 15 digits, the E.164 bounds', () => {
    expect(normalizePhone('+12345678')).toBe('+12345678');
    expect(normalizePhone('+123456789012345')).toBe('+123456789012345');
  });

  it('rejects 7 and 16 digits', () => {
    expect(normalizePhone('+1234567')).toBeNull();
    expect(normalizePhone('+1234567890123456')).toBeNull();
    expect(normalizePhone('001234567')).toBeNull();
  });

  it('rejects numbers without an international prefix', () => {
    expect(normalizePhone('020 7946 0958')).toBeNull();
    expect(normalizePhone('441234567890')).toBeNull();
  });

  it('rejects letters, other symbols and a misplaced plus', () => {
    expect(normalizePhone('+44 20 7946 CALL')).toBeNull();
    expect(normalizePhone('+44/2079460958')).toBeNull();
    expect(normalizePhone('44+2079460958')).toBeNull();
    expect(normalizePhone('++442079460958')).toBeNull();
    expect(normalizePhone('')).toBeNull();
  });
});
