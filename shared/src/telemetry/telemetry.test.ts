import { isSafeTarget, MAX_EVENTS_PER_BATCH, validateTelemetryBatch, type TelemetryValidation } from '.';

const vocabulary = { routes: ['/', '/sign-up', '/thank-you'], remotes: ['intro', 'signup', 'thankyou'] };

function batch(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    route: '/sign-up',
    device: 'phone',
    builds: { signup: '0123456789ab', intro: 'image' },
    events: [
      { type: 'load_failure', remote: 'signup', phase: 'lazy_chunk', kind: 'timeout', t: 1200 },
      { type: 'render_error', remote: 'signup', errorName: 'TypeError', t: 1300 },
      { type: 'uncaught', remote: null, errorName: 'ChunkLoadError', t: 1400, rejection: true },
      { type: 'vital', name: 'LCP', value: 1834.5, remote: 'signup', rating: 'good', target: 'main>h1.title', t: 1900 },
      { type: 'vital', name: 'CLS', value: 0.02, remote: null, t: 5000 },
    ],
    ...overrides,
  };
}

const problemsOf = (result: TelemetryValidation) => (result.ok ? [] : result.problems);

describe('validateTelemetryBatch', () => {
  it('accepts a full batch and returns a copy with the known keys only', () => {
    const result = validateTelemetryBatch(batch(), vocabulary);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.events).toHaveLength(5);
      expect(result.value.builds).toEqual({ signup: '0123456789ab', intro: 'image' });
    }
  });

  it.each([
    ['not an object', [], 'batch: not_an_object'],
    ['an unknown top-level key', { ...batch(), url: 'https://x' }, 'url: unknown_key'],
    ['a junk key, not echoed', { ...batch(), 'a b<script>': 1 }, '(key): unknown_key'],
    ['another version', batch({ v: 2 }), 'v: unsupported_version'],
    ['an unknown route', batch({ route: '/sign-up?email=a@b' }), 'route: unknown_route'],
    ['a bad device', batch({ device: 'watch' }), 'device: invalid'],
    ['an unknown remote in builds', batch({ builds: { evil: 'image' } }), 'builds: unknown_remote'],
    ['a bad build id', batch({ builds: { signup: 'ABCDEF012345' } }), 'builds.signup: invalid_build_id'],
    ['no events', batch({ events: [] }), 'events: empty'],
    ['events not an array', batch({ events: {} }), 'events: not_an_array'],
    ['too many events', batch({ events: Array(MAX_EVENTS_PER_BATCH + 1).fill(batch().events) }), 'events: too_many'],
  ])('refuses %s', (_name, input, expected) => {
    expect(problemsOf(validateTelemetryBatch(input, vocabulary))).toContain(expected);
  });

  const withEvent = (event: Record<string, unknown>) => batch({ events: [event] });
  const lcp = { type: 'vital', name: 'LCP', value: 100, remote: 'signup', t: 10 };
  it.each([
    ['an unknown event key (a message)', { ...lcp, message: 'boom' }, 'events[0].message: unknown_key'],
    ['a missing key', { type: 'vital', name: 'LCP', value: 1, t: 1 }, 'events[0].remote: missing'],
    ['negative t', { ...lcp, t: -1 }, 'events[0].t: out_of_range'],
    ['t over an hour', { ...lcp, t: 3_600_001 }, 'events[0].t: out_of_range'],
    ['t as a string', { ...lcp, t: '10' }, 'events[0].t: out_of_range'],
    ['a negative value', { ...lcp, value: -5 }, 'events[0].value: out_of_range'],
    ['a remote not in builds', { ...lcp, remote: 'thankyou' }, 'events[0].remote: not_in_builds'],
    [
      'a null remote on a load failure',
      { type: 'load_failure', remote: null, phase: 'entry', kind: 'http', t: 1 },
      'events[0].remote: invalid',
    ],
    [
      'a bad phase',
      { type: 'load_failure', remote: 'signup', phase: 'x', kind: 'http', t: 1 },
      'events[0].phase: invalid',
    ],
    [
      'an error message as the name',
      { type: 'render_error', remote: 'signup', errorName: 'Cannot read x', t: 1 },
      'events[0].errorName: invalid',
    ],
    [
      'rejection not a boolean',
      { type: 'uncaught', remote: null, errorName: 'Error', t: 1, rejection: 1 },
      'events[0].rejection: invalid',
    ],
    ['a bad rating', { ...lcp, rating: 'bad' }, 'events[0].rating: invalid'],
    ['a target with an e-mail', { ...lcp, target: 'input[value=a@b.c]' }, 'events[0].target: unsafe'],
    ['an unknown type', { ...lcp, type: 'log' }, 'events[0].type: invalid'],
  ])('refuses an event with %s', (_name, event, expected) => {
    expect(problemsOf(validateTelemetryBatch(withEvent(event), vocabulary))).toContain(expected);
  });

  it('NaN and Infinity are not numbers here', () => {
    expect(validateTelemetryBatch(withEvent({ ...lcp, value: NaN }), vocabulary).ok).toBe(false);
    expect(validateTelemetryBatch(withEvent({ ...lcp, value: Infinity }), vocabulary).ok).toBe(false);
  });

  it('lists at most 20 problems', () => {
    const events = Array(50).fill({ ...lcp, t: -1, value: -1 });
    expect(problemsOf(validateTelemetryBatch(batch({ events }), vocabulary))).toHaveLength(20);
  });
});

describe('isSafeTarget', () => {
  it.each(['main>h1.title', 'form#sign-up>button.primary', 'div.card:nth-child(2)'])('keeps %s', (target) =>
    expect(isSafeTarget(target)).toBe(true),
  );
  it.each(['input#card-4111', 'a[href=x]', 'p.user@example', 'a?b', 'x'.repeat(101), '', 'é'])('drops %s', (target) =>
    expect(isSafeTarget(target)).toBe(false),
  );
});
