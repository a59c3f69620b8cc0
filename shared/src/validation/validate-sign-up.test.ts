import { SIGN_UP_FIELDS, type SignUpInput } from './sign-up-types';
import { INVALID_CHECKSUM_TEST_CARD_CODE, VALID_TEST_CARD_CODES } from '../testing/cards';
import { validateSignUp, validateSignUpField } from './validate-sign-up';

const VALID_CARD = VALID_TEST_CARD_CODES[0];

const validInput = (): SignUpInput => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+441234567890',
  cardCode: VALID_CARD,
  acceptedTerms: true,
});

/** The errors validateSignUp reports for `input`, or a failure if it unexpectedly passes. */
function errorsOf(input: unknown) {
  const result = validateSignUp(input);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

describe('SIGN_UP_FIELDS', () => {
  it('lists the fields in form order', () => {
    expect(SIGN_UP_FIELDS).toEqual(['firstName', 'lastName', 'email', 'phone', 'cardCode', 'acceptedTerms']);
  });
});

describe('validateSignUp', () => {
  it('accepts a valid sign-up and returns it normalised', () => {
    const result = validateSignUp({
      firstName: '  Ada ',
      lastName: ' Lovelace',
      email: ' Ada@Example.COM ',
      phone: '0044 (0) 1234-567.890',
      cardCode: '4111 1111-1111 1111',
      acceptedTerms: true,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'Ada@example.com',
        phone: '+4401234567890',
        cardCode: '4111111111111111',
        acceptedTerms: true,
      },
    });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['null', null],
  ])('leaves the optional phone out when it is %s', (_label, phone) => {
    const result = validateSignUp({ ...validInput(), phone });
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).not.toHaveProperty('phone');
  });

  it('reports every invalid field at once', () => {
    expect(
      errorsOf({
        firstName: ' ',
        lastName: 'x'.repeat(51),
        email: 'nope',
        phone: '12',
        cardCode: '4111',
        acceptedTerms: false,
      }),
    ).toEqual({
      firstName: 'required',
      lastName: 'too_long',
      email: 'invalid_email',
      phone: 'invalid_phone',
      cardCode: 'invalid_card_code',
      acceptedTerms: 'consent_required',
    });
  });

  it('reports only the invalid fields', () => {
    expect(errorsOf({ ...validInput(), email: 'ada@localhost' })).toEqual({ email: 'invalid_email' });
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'firstName=Ada'],
    ['a number', 42],
    ['an array', [validInput()]],
    ['an empty object', {}],
  ])('answers %s with the required-field errors, never a throw', (_label, input) => {
    expect(errorsOf(input)).toEqual({
      firstName: 'required',
      lastName: 'required',
      email: 'required',
      cardCode: 'required',
      acceptedTerms: 'consent_required',
    });
  });

  it('reads own properties only', () => {
    const inherited = Object.create(validInput()) as object;
    expect(errorsOf(inherited)).toMatchObject({ firstName: 'required', cardCode: 'required' });
  });

  it('ignores unknown properties', () => {
    expect(validateSignUp({ ...validInput(), isAdmin: true }).ok).toBe(true);
  });

  describe('names', () => {
    it.each(['firstName', 'lastName'] as const)('%s allows 50 characters after trimming, not 51', (field) => {
      expect(validateSignUpField(field, { [field]: ` ${'a'.repeat(50)} ` })).toBeUndefined();
      expect(validateSignUpField(field, { [field]: 'a'.repeat(51) })).toBe('too_long');
    });

    it('counts code points, so a letter and 49 emoji fit though they are 99 UTF-16 units', () => {
      expect(`A${'😀'.repeat(49)}`.length).toBe(99);
      expect(validateSignUpField('firstName', { firstName: `A${'😀'.repeat(49)}` })).toBeUndefined();
      expect(validateSignUpField('firstName', { firstName: `A${'😀'.repeat(50)}` })).toBe('too_long');
    });

    it.each([
      ['NUL', 'Ada\u0000'],
      ['a tab', 'Ada\tLovelace'],
      ['a line feed', 'Ada\nLovelace'],
      ['an escape', '\u001b[31mAda'],
      ['DEL', 'Ada\u007f'],
      ['a C1 control', 'Ada\u0085'],
      ['a right-to-left override', 'Ada\u202egnp.exe'],
      ['a first-strong isolate', '\u2068Ada\u2069'],
      ['a lone high surrogate', 'Ada\ud83d'],
      ['a lone low surrogate', '\ude00Ada'],
      ['a noncharacter U+FFFE', 'Ada\ufffe'],
      ['a noncharacter U+FFFF', 'Ada\uffff'],
      ['a tag character U+E0001', 'Ada\u{e0001}'],
    ])('rejects %s as invalid_characters', (_label, name) => {
      expect(validateSignUpField('firstName', { firstName: name })).toBe('invalid_characters');
      expect(validateSignUpField('lastName', { lastName: name })).toBe('invalid_characters');
    });

    it.each([
      ['a zero-width space', '\u200b'],
      ['zero-width joiners', '\u200d\u200d'],
      ['a right-to-left mark', '\u200f'],
      ['a byte-order mark', '\ufeff'],
      ['an emoji', '😀'],
      ['digits', '1234'],
      ['punctuation', "-'."],
    ])('counts a name without a letter, such as %s, as not given (required)', (_label, name) => {
      expect(validateSignUpField('firstName', { firstName: name })).toBe('required');
      expect(validateSignUpField('lastName', { lastName: name })).toBe('required');
    });

    it('accepts letters of any script, emoji, and the left-to-right and right-to-left marks', () => {
      for (const name of ['Zoë', 'محمد', 'שרה', '李', 'Ada 😀', 'O\u2019Brien', 'Ali\u200f', 'Jean-Luc']) {
        expect(validateSignUpField('firstName', { firstName: name })).toBeUndefined();
      }
    });

    it('accepts a one-character name', () => {
      expect(validateSignUpField('lastName', { lastName: 'Ø' })).toBeUndefined();
    });

    it.each([
      ['missing', undefined],
      ['blank', ' \t '],
      ['a number', 7],
      ['a boolean', true],
      ['an object', { first: 'Ada' }],
    ])('are required: %s fails', (_label, value) => {
      expect(validateSignUpField('firstName', { firstName: value })).toBe('required');
    });
  });

  describe('email', () => {
    const ofLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

    it('is required', () => {
      expect(validateSignUpField('email', { email: '' })).toBe('required');
      expect(validateSignUpField('email', {})).toBe('required');
    });

    it('allows 254 characters and calls 255 too long', () => {
      expect(validateSignUpField('email', { email: ofLength(254) })).toBeUndefined();
      expect(validateSignUpField('email', { email: ofLength(255) })).toBe('too_long');
    });

    it('rejects a malformed address and a non-string', () => {
      expect(validateSignUpField('email', { email: 'ada@' })).toBe('invalid_email');
      expect(validateSignUpField('email', { email: 12 })).toBe('invalid_email');
    });
  });

  describe('phone', () => {
    it('accepts 8 and 15 digits and rejects 7 and 16', () => {
      expect(validateSignUpField('phone', { phone: '+12345678' })).toBeUndefined();
      expect(validateSignUpField('phone', { phone: '+123456789012345' })).toBeUndefined();
      expect(validateSignUpField('phone', { phone: '+1234567' })).toBe('invalid_phone');
      expect(validateSignUpField('phone', { phone: '+1234567890123456' })).toBe('invalid_phone');
    });

    it('rejects a non-string value', () => {
      expect(validateSignUpField('phone', { phone: 441234567890 })).toBe('invalid_phone');
    });
  });

  describe('card code', () => {
    it('accepts the digits with spaces or dashes', () => {
      expect(validateSignUpField('cardCode', { cardCode: '4111 1111 1111 1111' })).toBeUndefined();
      expect(validateSignUpField('cardCode', { cardCode: '4111-1111-1111-1111' })).toBeUndefined();
    });

    it('is required', () => {
      expect(validateSignUpField('cardCode', { cardCode: '  ' })).toBe('required');
    });

    it.each([
      ['15 digits', '411111111111111'],
      ['17 digits', '41111111111111110'],
      ['a letter', '411111111111111a'],
      ['other separators', '4111.1111.1111.1111'],
      ['a number, not text', 4111111111111111],
      ['all zeros (Luhn-valid, but no card)', '0000000000000000'],
      ['all zeros, grouped', '0000 0000 0000 0000'],
    ])('rejects %s as invalid_card_code', (_label, cardCode) => {
      expect(validateSignUpField('cardCode', { cardCode })).toBe('invalid_card_code');
    });

    it('rejects 16 digits with a bad checksum as card_checksum', () => {
      expect(validateSignUpField('cardCode', { cardCode: INVALID_CHECKSUM_TEST_CARD_CODE })).toBe('card_checksum');
    });
  });

  describe('acceptedTerms', () => {
    it('must be exactly true', () => {
      expect(validateSignUpField('acceptedTerms', { acceptedTerms: true })).toBeUndefined();
      for (const acceptedTerms of [false, 'true', 1, undefined, null]) {
        expect(validateSignUpField('acceptedTerms', { acceptedTerms })).toBe('consent_required');
      }
    });
  });
});

describe('validateSignUpField', () => {
  it('judges one field of the whole form and ignores the others', () => {
    const input = { ...validInput(), lastName: '', cardCode: INVALID_CHECKSUM_TEST_CARD_CODE };
    expect(validateSignUpField('firstName', input)).toBeUndefined();
    expect(validateSignUpField('lastName', input)).toBe('required');
    expect(validateSignUpField('cardCode', input)).toBe('card_checksum');
  });

  it('agrees with validateSignUp on every field', () => {
    const input = {
      firstName: '',
      lastName: 'L',
      email: 'x',
      phone: '+1',
      cardCode: INVALID_CHECKSUM_TEST_CARD_CODE,
      acceptedTerms: 'yes',
    };
    const errors = errorsOf(input);
    for (const field of SIGN_UP_FIELDS) expect(validateSignUpField(field, input)).toBe(errors[field]);
  });

  it('never throws on a non-object form', () => {
    expect(validateSignUpField('email', null)).toBe('required');
    expect(validateSignUpField('phone', 'text')).toBeUndefined();
  });
});
