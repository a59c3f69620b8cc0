import { toIsoTimestamp } from './timestamp';

describe('toIsoTimestamp', () => {
  it('formats a Date, a string and epoch milliseconds as ISO 8601 UTC', () => {
    expect(toIsoTimestamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678)))).toBe('2025-01-02T03:04:05.678Z');
    expect(toIsoTimestamp('2025-01-02T03:04:05.678+01:00')).toBe('2025-01-02T02:04:05.678Z');
    expect(toIsoTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('rejects what is not a timestamp', () => {
    expect(() => toIsoTimestamp('yesterday')).toThrow(TypeError);
    expect(() => toIsoTimestamp(undefined)).toThrow(TypeError);
  });
});
