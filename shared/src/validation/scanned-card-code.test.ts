import { parseScannedCardCode } from './scanned-card-code';
import { INVALID_CHECKSUM_TEST_CARD_CODE, VALID_TEST_CARD_CODES } from '../testing/cards';

const BASE = 'https://www.special-gift.example/scan';
const CODE = VALID_TEST_CARD_CODES[0];
const parse = (text: string, cardScanBase = BASE, origin?: string) =>
  parseScannedCardCode(text, { cardScanBase, origin });

describe('parseScannedCardCode: scan links', () => {
  it.each([
    [`${BASE}/${CODE}`],
    [`${BASE}/${CODE}/`],
    [`${BASE}?card=${CODE}`],
    [`${BASE}/?card=${CODE}`],
    [`${BASE}/sign-up?card=${CODE}`],
    [`${BASE}/sign-up?lang=fr&card=${CODE}#top`],
    [`${BASE}/4111-1111-1111-1111`],
    [`${BASE}/4111%201111%201111%201111`],
    [`${BASE}?card=4111+1111+1111+1111`],
    [`HTTPS://WWW.Special-Gift.example/scan/${CODE}`],
  ])('reads the code from %s', (link) => {
    expect(parse(link)).toEqual({ ok: true, code: CODE });
  });

  it('accepts a base given with trailing slashes', () => {
    expect(parse(`${BASE}/${CODE}`, `${BASE}//`)).toEqual({ ok: true, code: CODE });
  });

  it('resolves a root-relative base against the page origin', () => {
    expect(parse(`http://localhost:3000/scan/${CODE}`, '/scan', 'http://localhost:3000')).toEqual({
      ok: true,
      code: CODE,
    });
    expect(parse(`https://elsewhere.example/scan/${CODE}`, '/scan', 'http://localhost:3000')).toEqual({
      ok: false,
      problem: 'foreign_link',
    });
  });

  it.each([
    ['another site', `https://evil.example/scan/${CODE}`],
    ['a look-alike host', `https://www.special-gift.example.evil.example/scan/${CODE}`],
    ['another scheme', `http://www.special-gift.example/scan/${CODE}`],
    ['another port', `https://www.special-gift.example:8443/scan/${CODE}`],
    ['a path beside the base', `https://www.special-gift.example/scanner/${CODE}`],
    ['a path outside the base', `https://www.special-gift.example/sign-up?card=${CODE}`],
    ['credentials in the link', `https://user:pw@www.special-gift.example/scan/${CODE}`],
  ])('rejects a link to %s as foreign', (_, link) => {
    expect(parse(link)).toEqual({ ok: false, problem: 'foreign_link' });
  });

  it.each([[BASE], [`${BASE}/`], [`${BASE}/sign-up`], [`${BASE}/sign-up/${CODE}`], [`${BASE}?card=`]])(
    'says %s carries no card code',
    (link) => {
      expect(parse(link)).toEqual({ ok: false, problem: 'no_card_code' });
    },
  );

  it('checks the code a link carries', () => {
    expect(parse(`${BASE}/${INVALID_CHECKSUM_TEST_CARD_CODE}`)).toEqual({ ok: false, problem: 'card_checksum' });
    expect(parse(`${BASE}?card=${INVALID_CHECKSUM_TEST_CARD_CODE}`)).toEqual({ ok: false, problem: 'card_checksum' });
    expect(parse(`${BASE}?card=4111`)).toEqual({ ok: false, problem: 'invalid_card_code' });
    expect(parse(`${BASE}?card=4111abcd11111111`)).toEqual({ ok: false, problem: 'invalid_card_code' });
  });
});

describe('parseScannedCardCode: bare codes', () => {
  it.each([
    [CODE],
    ['4111 1111 1111 1111'],
    ['4111-1111-1111-1111'],
    ['  4111 1111-1111 1111\n'],
    ['\t5555555555554444 '],
  ])('reads %j', (text) => {
    expect(parse(text)).toEqual({ ok: true, code: normalizeExpected(text) });
  });

  it('rejects a code that fails the Luhn check', () => {
    expect(parse(INVALID_CHECKSUM_TEST_CARD_CODE)).toEqual({ ok: false, problem: 'card_checksum' });
  });

  it.each([['4111 1111'], ['41111111111111111'], ['0']])('rejects %j: not 16 digits', (text) => {
    expect(parse(text)).toEqual({ ok: false, problem: 'invalid_card_code' });
  });
});

describe('parseScannedCardCode: anything else', () => {
  it.each([
    [''],
    ['   '],
    ['hello'],
    ['4111 1111 1111 111x'],
    ['WIFI:S:home;T:WPA;P:secret;;'],
    ['mailto:someone@example.com'],
    ['javascript:alert(1)'],
    ['ftp://www.special-gift.example/scan/4111111111111111'],
  ])('does not recognize %j', (text) => {
    expect(parse(text)).toEqual({ ok: false, problem: 'unrecognized' });
  });
});

function normalizeExpected(text: string): string {
  return text.replace(/[^0-9]/g, '');
}
