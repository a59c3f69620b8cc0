import { buildsToPurge, KEEP_LAST_LIVE } from './retention';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-23T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
const id = (n: number) => n.toString(16).padStart(12, '0');

/** A remote released once a day for `count` days, build n on day count-n; the last one is live. */
function dailyReleases(count: number, lastAt = 1) {
  const history = Array.from({ length: count }, (_, index) => ({
    revision: index + 1,
    action: 'release',
    buildId: id(index + 1),
    at: daysAgo(lastAt + count - 1 - index),
  }));
  const builds = history.map((entry) => ({ buildId: entry.buildId, publishedAt: entry.at }));
  return { history, builds, pointer: { live: id(count), canary: null } };
}

describe('retention', () => {
  it('keeps the live build, the canary, and the last 10 that were live; purges older ones', () => {
    const { history, builds, pointer } = dailyReleases(15, 30);
    const canary = { buildId: id(99), publishedAt: daysAgo(40) };
    const purged = buildsToPurge({
      pointer: { ...pointer, canary: canary.buildId },
      builds: [...builds, canary],
      history,
      now,
    });
    expect(purged).toEqual([id(1), id(2), id(3), id(4), id(5)]);
    expect(15 - purged.length).toBe(KEEP_LAST_LIVE);
  });

  it('keeps every build that was live within 7 days, however many', () => {
    // 20 releases, 8 hours apart, the last one an hour ago: all live within the week.
    const history = Array.from({ length: 20 }, (_, index) => ({
      revision: index + 1,
      action: 'release',
      buildId: id(index + 1),
      at: new Date(now.getTime() - (19 - index) * 8 * 3600_000 - 3600_000).toISOString(),
    }));
    const builds = history.map((entry) => ({ buildId: entry.buildId, publishedAt: entry.at }));
    expect(buildsToPurge({ pointer: { live: id(20), canary: null }, builds, history, now })).toEqual([]);
  });

  it('counts a build as live until the next release replaced it, not from when it was released', () => {
    // Build 1 released 30 days ago, replaced 6 days ago: it was live within the week.
    const history = [
      { revision: 1, action: 'release', buildId: id(1), at: daysAgo(30) },
      { revision: 2, action: 'release', buildId: id(2), at: daysAgo(6) },
    ];
    const old = { buildId: id(3), publishedAt: daysAgo(20) };
    const builds = [{ buildId: id(1), publishedAt: daysAgo(30) }, { buildId: id(2), publishedAt: daysAgo(6) }, old];
    // Build 3 was never live and is older than a week: purged.
    expect(buildsToPurge({ pointer: { live: id(2), canary: null }, builds, history, now })).toEqual([id(3)]);
  });

  it('keeps a recent build that was never live (waiting for its release), and handles a detached remote', () => {
    const { history, builds } = dailyReleases(12, 20);
    const detach = { revision: 13, action: 'detach', buildId: null, at: daysAgo(10) };
    const fresh = { buildId: id(50), publishedAt: daysAgo(0) };
    const purged = buildsToPurge({ pointer: null, builds: [...builds, fresh], history: [...history, detach], now });
    expect(purged).toEqual([id(1), id(2)]);
  });

  it('does not count canary or abort rows as live', () => {
    const history = [
      { revision: 1, action: 'release', buildId: id(1), at: daysAgo(30) },
      { revision: 2, action: 'canary', buildId: id(2), at: daysAgo(29) },
      { revision: 3, action: 'abort', buildId: null, at: daysAgo(29) },
    ];
    const builds = [
      { buildId: id(1), publishedAt: daysAgo(30) },
      { buildId: id(2), publishedAt: daysAgo(29) },
    ];
    expect(buildsToPurge({ pointer: { live: id(1), canary: null }, builds, history, now })).toEqual([id(2)]);
  });
});
