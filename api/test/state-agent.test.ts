// The state agent beside the host's nginx (tooling/state-agent) answers the two subrequests the API
// answered: these tests hold it to the API's own code, the snapshot's choice of builds and hashes
// (servedForBucket, formatPageIntegrity) and the page-token check (checkPageToken).
import { formatPageBuilds } from '@special-gift/shared/builds';
import { formatPageIntegrity } from '@special-gift/shared/composition';
import type { ReleaseState } from '@special-gift/shared/release-state';
import type { TelemetryBatch } from '@special-gift/shared/telemetry';
import { agentPerTest, ENVIRONMENT, publishToFolder, releasedState } from '../../tooling/state-agent/test-support';
import type { PointerRow } from '../src/releases/pointer-store';
import { servedForBucket } from '../src/releases/snapshot';
import { checkPageToken, pageTokenKeys } from '../src/telemetry/page-token';

const agents = agentPerTest();

/** The pointer rows the API wrote this state from: each remote's live and canary, with their hashes. */
function pointerRows(state: ReleaseState): PointerRow[] {
  return Object.entries(state.remotes).map(([remote, entry]) => ({
    remote,
    live: entry.live,
    canary: entry.canary,
    canaryPercent: entry.canaryPercent,
    liveIntegrity: entry.integrity[entry.live] ?? null,
    canaryIntegrity: entry.canary === null ? null : (entry.integrity[entry.canary] ?? null),
  }));
}

test('for every bucket, the agent’s Sg-Builds and Sg-Integrity are what the API’s snapshot says', async () => {
  const state = releasedState(7, 25);
  publishToFolder(agents.folder(), state);
  const agent = await agents.start();
  const rows = pointerRows(state);
  for (let bucket = 0; bucket < 100; bucket += 1) {
    const answer = await fetch(`${agent.url}/v1/releases/snapshot?bucket=${bucket}`);
    const api = servedForBucket(rows, bucket);
    expect([bucket, answer.headers.get('sg-builds'), answer.headers.get('sg-integrity')]).toEqual([
      bucket,
      formatPageBuilds(api.builds),
      formatPageIntegrity(api.integrity),
    ]);
  }
});

test('the API checks the agent’s tokens under both keys of a rotation, bound to the builds and network', async () => {
  const [newKey, oldKey] = pageTokenKeys(`${'n'.repeat(32)},${'o'.repeat(32)}`, undefined);
  if (!newKey || !oldKey) throw new Error('two keys expected');
  publishToFolder(agents.folder(), releasedState(7, 25));
  const builds = 'intro=0000000000b2,signup=0000000000c3';
  const batch = (token: string, signup = '0000000000c3'): TelemetryBatch => ({
    v: 1,
    route: 'sign-up',
    device: 'desktop',
    builds: { intro: '0000000000b2', signup },
    events: [],
    token,
  });
  // Before the rotation's end the agent may still sign with the old key, after it with the new one.
  for (const signing of [[oldKey], [newKey, oldKey]]) {
    const agent = await agents.start({ pageTokenKeys: signing });
    const answer = await fetch(`${agent.url}/v1/telemetry/page-token?bucket=3`, {
      headers: { 'sg-builds': builds, 'x-forwarded-for': '198.51.100.4' },
    });
    const token = await answer.text();
    const now = Math.floor(Date.now() / 1000);
    expect(checkPageToken([newKey, oldKey], ENVIRONMENT, batch(token), now, '198.51.100.77')).toMatchObject({
      provenance: 'signed',
    });
    // Another network, or other builds than the token's: not a signed view.
    expect(checkPageToken([newKey, oldKey], ENVIRONMENT, batch(token), now, '203.0.113.9')).toEqual({
      provenance: 'mismatched',
    });
    expect(checkPageToken([newKey, oldKey], ENVIRONMENT, batch(token, '0000000000a1'), now, '198.51.100.4')).toEqual({
      provenance: 'mismatched',
    });
    // A key the API does not hold: forged.
    expect(
      checkPageToken([pageTokenKeys('x'.repeat(32), undefined)[0]!], ENVIRONMENT, batch(token), now, '198.51.100.4'),
    ).toEqual({
      provenance: 'forged',
    });
    await agent.stop();
  }
});
