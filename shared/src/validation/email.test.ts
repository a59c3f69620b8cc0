import { EMAIL_MAX_LENGTH, isValidEmail, normalizeEmail } from './email';

/** A syntactically valid address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = '@example.com';
  return `${'a'.repeat(length - domain.length)}${domain}`;
}

describe('isValidEmail', () => {
  it.each([
    'ada@example.com',
    'Ada.Lovelace+gifts@mail.example.co.uk',
    "o'brien@example.ie",
    'x@a-b.io',
    'user@123.example',
    '  padded@example.com  ',
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['no @', 'ada.example.com'],
    ['two @', 'ada@lovelace@example.com'],
    ['no dot in the domain', 'ada@localhost'],
    ['an empty local part', '@example.com'],
    ['an empty domain', 'ada@'],
    ['a leading hyphen in a label', 'ada@-example.com'],
    ['a trailing hyphen in a label', 'ada@example-.com'],
    ['an empty label', 'ada@example..com'],
    ['a trailing dot', 'ada@example.com.'],
    ['an underscore in the domain', 'ada@ex_ample.com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['non-ASCII', 'zoë@example.com'],
    ['a label over 63 characters', `ada@${'a'.repeat(64)}.com`],
    ['nothing', ''],
  ])('rejects %s', (_label, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it(`allows ${EMAIL_MAX_LENGTH} characters but not ${EMAIL_MAX_LENGTH + 1}`, () => {
    expect(isValidEmail(emailOfLength(254))).toBe(true);
    expect(isValidEmail(emailOfLength(255))).toBe(false);
  });

  it('measures the length after trimming', () => {
    expect(isValidEmail(`  ${emailOfLength(254)}  `)).toBe(true);
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases the domain only', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('Ada.Lovelace@example.com');
  });

  it('returns null for an invalid address', () => {
    expect(normalizeEmail('ada@localhost')).toBeNull();
    expect(normalizeEmail(emailOfLength(255))).toBeNull();
  });
});
