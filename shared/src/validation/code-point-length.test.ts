import { codePointLength } from './code-point-length';

describe('codePointLength', () => {
  it('counts ASCII characters', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('Ada')).toBe(3);
  });

  it('counts an astral-plane emoji as one, where String#length says two', () => {
    expect('😀'.length).toBe(2);
    expect(codePointLength('😀')).toBe(1);
    expect(codePointLength('Zoë 😀😀')).toBe(6);
  });
});
