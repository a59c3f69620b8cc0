import { isEmptyInputValue } from './required';

describe('isEmptyInputValue', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an empty string', ''],
    ['an empty array', []],
  ])('treats %s as missing (as Angular does)', (_label, value) => {
    expect(isEmptyInputValue(value)).toBe(true);
  });

  it.each([
    ['0', 0],
    ['false', false],
    ['an empty object', {}],
    ['a non-empty array', [1]],
    ['text', 'a'],
    ['text with surrounding spaces', '  a  '],
  ])('treats %s as a value', (_label, value) => {
    expect(isEmptyInputValue(value)).toBe(false);
  });

  // Our decision, unlike Angular's Validators.required: spaces alone are not an answer.
  it.each([' ', '   ', '\t\n', '\u00a0'])('treats whitespace-only %j as missing', (value) => {
    expect(isEmptyInputValue(value)).toBe(true);
  });
});
