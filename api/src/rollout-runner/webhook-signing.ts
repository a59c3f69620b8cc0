// A rollout's notifications to its team (docs/rollouts.md, "Webhooks"): Standard Webhooks
// (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256>`), so any of that
// spec's libraries verifies them. The secret is derived per remote from one key, like the preview
// key: nothing secret is stored, and bumping the remote's generation rotates it.
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { RolloutEventKind } from '@special-gift/shared/api';

const SECRET_PREFIX = 'whsec_';

/** The remote's signing secret, as a receiver configures it (`whsec_<base64>`). */
export function webhookSecret(key: string, environment: string, remote: string, generation: number): string {
  const bytes = createHmac('sha256', key)
    .update(`special-gift rollout webhook v1 ${environment} ${remote} ${generation}`)
    .digest();
  return SECRET_PREFIX + bytes.toString('base64');
}

/** `webhook-signature`'s value for these exact bytes: `v1,` and the HMAC of `id.timestamp.body`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** After the first attempt fails: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h; then it gives up. */
export const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1_800, 3_600, 7_200, 14_400] as const;

/** The type a receiver switches on, per timeline event. */
export const WEBHOOK_TYPES: Readonly<Record<RolloutEventKind, string>> = {
  started: 'rollout.started',
  'gate-passed': 'gate.passed',
  'gate-failed': 'gate.failed',
  'gate-waiting': 'gate.waiting',
  step: 'step.advanced',
  hold: 'step.held',
  blocked: 'rollout.blocked',
  'approval-requested': 'approval.requested',
  approved: 'approval.granted',
  paused: 'rollout.paused',
  resumed: 'rollout.resumed',
  skipped: 'step.skipped',
  'rolled-back': 'rollout.rolled_back',
  promoted: 'rollout.promoted',
  succeeded: 'rollout.succeeded',
  failed: 'rollout.failed',
  aborted: 'rollout.aborted',
  'telemetry-stale': 'telemetry.stale',
};

/**
 * Why the API will not post to this URL, or null. An admin sets it, and the API posts from inside
 * the cluster, so it is a server-side request forgery risk: with `ROLLOUT_WEBHOOK_HOSTS` set, only
 * those host names (or `host:port`) are allowed; without, only https, and never a loopback,
 * private, link-local or otherwise non-public address literal. A name that resolves to a private
 * address is not caught without the allowlist: production should set it (docs/security.md).
 */
export function webhookUrlProblem(value: string, allowedHosts: readonly string[] | null): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.hash !== '') return 'must not have a fragment';
  if (value.length > 2_048) return 'must be at most 2,048 characters';
  if (allowedHosts !== null) {
    return allowedHosts.includes(url.hostname) || allowedHosts.includes(url.host)
      ? null
      : `its host ${url.host} is not in ROLLOUT_WEBHOOK_HOSTS (${allowedHosts.join(', ')})`;
  }
  if (url.protocol !== 'https:') return 'must be https (ROLLOUT_WEBHOOK_HOSTS allows named http hosts)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const address = ipaddr.process(host);
    if (address.range() !== 'unicast')
      return `its address is ${address.range()}, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)`;
  } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return 'its host is not a public name (ROLLOUT_WEBHOOK_HOSTS allows named hosts)';
  }
  return null;
}
