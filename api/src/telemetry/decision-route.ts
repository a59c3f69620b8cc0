// `GET /v1/telemetry/verdict`: the canary's sequential decision over its signed page views since it
// started (docs/rollouts.md). The CLI's `verdict` prints it and, with `--act yes`, acts on it.
import { BUILD_ID } from '@special-gift/shared/telemetry';
import type { RequestHandler } from 'express';
import { authorize } from '../access';
import type { Database } from '../db/database';
import { ApiError } from '../http/api-error';
import type { RolloutRuleParameters } from '../rollouts';
import { canaryAnswer } from './canary-answer';
import { TELEMETRY_VOCABULARY } from './vocabulary';

/** The oldest `since` asked for: stored telemetry is purged long before (TELEMETRY_RETENTION_DAYS). */
const MAX_SPAN_DAYS = 366;

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new ApiError(400, 'bad_request', `${name} is required.`);
  return value;
}

export function canaryDecision(db: Database, rule: RolloutRuleParameters, now: () => Date): RequestHandler {
  return async (req, res) => {
    const remote = text(req.query.remote, 'remote');
    if (!TELEMETRY_VOCABULARY.remotes.includes(remote)) {
      throw new ApiError(400, 'bad_request', `remote must be one of ${TELEMETRY_VOCABULARY.remotes.join(', ')}.`);
    }
    const canary = text(req.query.canary, 'canary');
    const baseline = text(req.query.baseline, 'baseline');
    if (!BUILD_ID.test(canary) || !BUILD_ID.test(baseline) || canary === baseline) {
      throw new ApiError(
        400,
        'bad_request',
        'canary and baseline must be two different build ids (12 hex digits, or image).',
      );
    }
    const until = now();
    const since = new Date(text(req.query.since, 'since'));
    if (
      !/^\d{4}-\d{2}-\d{2}T/.test(String(req.query.since)) ||
      Number.isNaN(since.getTime()) ||
      since > until ||
      until.getTime() - since.getTime() > MAX_SPAN_DAYS * 86_400_000
    ) {
      throw new ApiError(
        400,
        'bad_request',
        `since must be an ISO 8601 time in the last ${MAX_SPAN_DAYS} days, not in the future.`,
      );
    }
    authorize(res, remote, 'viewer', 'read field data');

    const { answer } = await canaryAnswer(db, { remote, canary, baseline, since, until }, rule);
    res.set('Cache-Control', 'no-store').json(answer);
  };
}
