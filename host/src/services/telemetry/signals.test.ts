import { MAX_KEPT_SIGNALS, recordSignal, type TimedSignal } from './signals';
import { loadCollector, prepareCollector, trackingRefused } from './load-collector';

afterEach(() => {
  delete window.__sgSignals;
  delete window.__sgTelemetry;
  document.head.innerHTML = '';
});

describe('the signals the host keeps for its collector', () => {
  it('keeps them, timed, until the collector takes over; then hands each to it', () => {
    recordSignal({ kind: 'load_failure', remote: 'intro', error: new Error('x') });
    const kept = window.__sgSignals as TimedSignal[];
    expect(kept).toEqual([expect.objectContaining({ kind: 'load_failure', remote: 'intro', t: expect.any(Number) })]);
    const taken: TimedSignal[] = [];
    window.__sgSignals = { push: (signal) => taken.push(signal) };
    recordSignal({ kind: 'render_error', remote: 'signup', error: null });
    expect(taken).toEqual([expect.objectContaining({ kind: 'render_error', remote: 'signup' })]);
  });

  it(`keeps at most ${MAX_KEPT_SIGNALS} before the collector runs`, () => {
    for (let i = 0; i < MAX_KEPT_SIGNALS + 20; i += 1) recordSignal({ kind: 'uncaught', error: i, rejection: true });
    expect(window.__sgSignals as TimedSignal[]).toHaveLength(MAX_KEPT_SIGNALS);
  });
});

describe('loading the collector', () => {
  it('honours Global Privacy Control and Do Not Track', () => {
    expect(trackingRefused({ globalPrivacyControl: true } as unknown as Navigator)).toBe(true);
    expect(trackingRefused({ doNotTrack: '1' } as unknown as Navigator)).toBe(true);
    expect(trackingRefused({ doNotTrack: null } as unknown as Navigator)).toBe(false);
  });

  it('adds the script the page names, once, and only once the context is known', () => {
    document.head.innerHTML = '<meta name="sg-collector" content="/collector.1234abcd.js">';
    loadCollector();
    expect(document.querySelectorAll('script')).toHaveLength(0);
    prepareCollector({ endpoint: '/api/v1/telemetry', entries: {} });
    loadCollector();
    loadCollector();
    expect(Array.from(document.querySelectorAll('script')).map((script) => script.getAttribute('src'))).toEqual([
      '/collector.1234abcd.js',
    ]);
  });
});
