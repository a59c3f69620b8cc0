// The gate runner's routes (docs/rollouts.md, "The gate runner"): claim a gate job, keep it with
// heartbeats, answer it. Its own credential (GATE_RUNNER_TOKEN), apart from the operator's: it
// passes or fails gates of builds already at their gates, and moves no pointer, starts nothing.
import { randomBytes } from 'node:crypto';
import { GATE_OUTCOMES, type GateJob, type GateOutcome, type RolloutGateName } from '@special-gift/shared/api';
import { Router, type RequestHandler } from 'express';
import { appendAudit } from '../access';
import type { Database } from '../db/database';
import { ApiError } from '../http/api-error';
import { isJsonObject, parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { bodyFields, jsonObject } from '../http/request-fields';
import { sameSecret } from '../http/signing';
import { signPreview } from '../releases';
import { answerGate, claimGate, heartbeat } from './gate-store';
import { appendEvent, readRollout } from './rollout-store';
import { GATE_ACTOR, type RolloutRunnerSettings } from './settings';

export interface GateRouteOptions {
  readonly db: Database;
  readonly environment: string;
  readonly operatorToken: string | undefined;
  readonly settings: RolloutRunnerSettings;
  /** The screen's path in the host by remote (`signup` → `/sign-up`). */
  readonly routes: Readonly<Record<string, string>>;
  readonly clock?: () => Date;
}

/** How long the preview cookie a gate job carries lasts. */
const PREVIEW_SECONDS = 600;
const ROLLOUT_ID = /^[0-9a-f]{24}$/;
const invalid = (message: string) => new ApiError(422, 'invalid_body', message);
const { readString } = bodyFields(invalid);
const gone = (message: string) => new ApiError(409, 'gate_job_gone', message);

export function gateRoutes({
  db,
  environment,
  operatorToken,
  settings,
  routes,
  clock = () => new Date(),
}: GateRouteOptions): Router {
  const router = Router();
  const json = [requireJsonContentType, parseJsonBody];
  const gateRunner: RequestHandler = (req, res, next) => {
    const secret = settings.gateRunnerToken;
    if (!secret || !operatorToken)
      throw new ApiError(
        503,
        'releases_disabled',
        'Gate jobs are off on this API: it has no GATE_RUNNER_TOKEN (or no OPERATOR_TOKEN).',
      );
    const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !sameSecret(match[1], secret)) {
      res.set('WWW-Authenticate', 'Bearer realm="gate-runner"');
      throw new ApiError(401, 'unauthorized', 'The gate runner credential (GATE_RUNNER_TOKEN) is missing or wrong.');
    }
    next();
  };
  const deadline = (now: Date) => new Date(now.getTime() + settings.gateClaimSeconds * 1000);
  const jobOf = (req: { params: Record<string, string | undefined> }) => {
    const { rolloutId, gate } = req.params;
    if (!rolloutId || !ROLLOUT_ID.test(rolloutId) || (gate !== 'integrity' && gate !== 'acceptance'))
      throw new ApiError(404, 'not_found', 'No such gate job.');
    return { rolloutId, gate: gate as RolloutGateName };
  };

  router
    .route('/v1/rollouts/gate-jobs/claim')
    .post(gateRunner, async (_req, res) => {
      const now = clock();
      const nonce = randomBytes(16).toString('hex');
      const expiresAt = deadline(now);
      const job = await db.transaction(async (tx): Promise<GateJob | null> => {
        const claimed = await claimGate(tx, environment, { nonce, now, expiresAt });
        if (!claimed) return null;
        const row = await readRollout(tx, environment, claimed.rolloutId);
        if (!row) return null;
        const build = await tx.query<{ integrity: Record<string, string> | null }>(
          'SELECT integrity FROM release_builds WHERE remote = $1 AND build_id = $2',
          [row.remote, row.buildId],
        );
        return {
          rolloutId: row.id,
          environment,
          remote: row.remote,
          buildId: row.buildId,
          gate: claimed.gate,
          nonce,
          route: routes[row.remote] ?? '/',
          integrity: build.rows[0]?.integrity ?? {},
          previewCookie: signPreview(operatorToken ?? '', environment, {
            remote: row.remote,
            buildId: row.buildId,
            expiresAt: Math.floor(now.getTime() / 1000) + PREVIEW_SECONDS,
            tokenId: 'operator',
          }),
          deadline: expiresAt.toISOString(),
        };
      });
      if (job === null) res.status(204).end();
      else res.set('Cache-Control', 'no-store').json(job);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/rollouts/gate-jobs/:rolloutId/:gate/heartbeat')
    .post(gateRunner, ...json, async (req, res) => {
      const { rolloutId, gate } = jobOf(req);
      const nonce = readString(jsonObject(req), 'nonce', { max: 64 });
      const until = deadline(clock());
      if (!(await heartbeat(db, rolloutId, gate, nonce, until)))
        throw gone(`The ${gate} job of rollout ${rolloutId} is no longer claimed under this nonce: claim again.`);
      res.json({ deadline: until.toISOString() });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/rollouts/gate-jobs/:rolloutId/:gate/result')
    .post(gateRunner, ...json, async (req, res) => {
      const { rolloutId, gate } = jobOf(req);
      const body = jsonObject(req);
      const nonce = readString(body, 'nonce', { max: 64 });
      const outcome = readString(body, 'outcome') as GateOutcome;
      if (!GATE_OUTCOMES.includes(outcome)) throw invalid(`\`outcome\` must be one of ${GATE_OUTCOMES.join(', ')}.`);
      const reason = readString(body, 'reason', { max: 2000 });
      const detail = body.detail ?? {};
      if (!isJsonObject(detail) || JSON.stringify(detail).length > 64_000)
        throw invalid('`detail` must be a JSON object of at most 64 kB.');
      const now = clock();
      const state = outcome === 'inconclusive' ? 'pending' : outcome;
      await db.transaction(async (tx) => {
        // The rollout's row first: its version moves, so a runner step read before this one is redone.
        const row = await tx.query<{ remote: string }>(
          `UPDATE rollouts SET version = version + 1, next_check_at = $3
            WHERE id = $1 AND environment = $2 AND state = 'gating' RETURNING remote`,
          [rolloutId, environment, now.toISOString()],
        );
        const remote = row.rows[0]?.remote;
        if (
          remote === undefined ||
          !(await answerGate(tx, rolloutId, gate, {
            nonce,
            state,
            reason,
            detail: { [outcome === 'inconclusive' ? 'lastInconclusive' : 'result']: detail },
            now,
          }))
        )
          throw gone(
            `The ${gate} job of rollout ${rolloutId} is no longer claimed under this nonce (it lapsed, or the rollout ended).`,
          );
        if (outcome === 'inconclusive') return;
        await appendEvent(tx, rolloutId, {
          kind: outcome === 'passed' ? 'gate-passed' : 'gate-failed',
          actor: GATE_ACTOR,
          reason: `${gate}: ${reason}`,
          at: now,
        });
        await appendAudit(tx, {
          ...GATE_ACTOR,
          environment,
          remote,
          action: 'rollout-gate',
          fromState: `${gate} running`,
          toState: `${gate} ${outcome}`,
          reason,
        });
      });
      res.json({ rolloutId, gate, state });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
