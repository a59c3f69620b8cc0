// A remote's rollout webhook (docs/rollouts.md, "Webhooks"): viewers see where it posts and how
// the last deliveries went; admins set or remove the URL, read the signing secret, and rotate it.
import { Router } from 'express';
import { actorOf, appendAudit, authorize, type Access } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { bodyFields, jsonObject, remoteParam } from '../http/request-fields';
import { webhookSecret, webhookUrlProblem } from './webhook-signing';
import { deleteWebhook, readWebhook, recentDeliveries, rotateWebhook, writeWebhook } from './webhook-store';

const invalid = (message: string) => new ApiError(422, 'invalid_body', message);
const { readString } = bodyFields(invalid);
const remoteOf = (req: Parameters<typeof remoteParam>[0]) => remoteParam(req, invalid);

export interface WebhookRouteOptions {
  readonly access: Access;
  readonly key: string;
  readonly allowedHosts: readonly string[] | null;
  readonly clock?: () => Date;
}

export function webhookRoutes({ access, key, allowedHosts, clock }: WebhookRouteOptions): Router {
  const router = Router();
  const { db, environment } = access;
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];
  const now = () => clock?.() ?? new Date();
  const path = '/v1/rollouts/webhooks/:remote';
  const secretOf = (remote: string, generation: number) => ({
    secret: webhookSecret(key, environment, remote, generation),
    generation,
  });

  router
    .route(path)
    .get(...auth, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'viewer', 'read the rollout webhook');
      res.json({
        environment,
        remote,
        webhook: await readWebhook(db, environment, remote),
        deliveries: await recentDeliveries(db, environment, remote, 20),
      });
    })
    .put(...auth, ...json, async (req, res) => {
      const remote = remoteOf(req);
      const principal = authorize(res, remote, 'admin', 'set the rollout webhook');
      const url = readString(jsonObject(req), 'url', { max: 2_048 });
      const problem = webhookUrlProblem(url, allowedHosts);
      if (problem) throw invalid(`\`url\` ${problem}.`);
      const webhook = await db.transaction(async (tx) => {
        const before = await readWebhook(tx, environment, remote);
        const after = await writeWebhook(tx, environment, remote, url, principal.name, now());
        await appendAudit(tx, {
          ...actorOf(req, res),
          environment,
          remote,
          action: 'rollout-webhook',
          fromState: before?.url ?? 'none',
          toState: url,
          reason: '',
        });
        return after;
      });
      res.json({ environment, remote, webhook, ...secretOf(remote, webhook.generation) });
    })
    .delete(...auth, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'admin', 'remove the rollout webhook');
      const removed = await db.transaction(async (tx) => {
        const before = await readWebhook(tx, environment, remote);
        if (!before) return false;
        await deleteWebhook(tx, environment, remote);
        await appendAudit(tx, {
          ...actorOf(req, res),
          environment,
          remote,
          action: 'rollout-webhook',
          fromState: before.url,
          toState: 'none',
          reason: '',
        });
        return true;
      });
      if (!removed) throw new ApiError(404, 'not_found', `${remote} has no rollout webhook.`);
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'PUT', 'DELETE']));

  router
    .route(`${path}/secret`)
    .get(...auth, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'admin', 'read the rollout webhook secret');
      const webhook = await readWebhook(db, environment, remote);
      if (!webhook) throw new ApiError(404, 'not_found', `${remote} has no rollout webhook.`);
      res.set('cache-control', 'no-store').json(secretOf(remote, webhook.generation));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route(`${path}/rotate`)
    .post(...auth, async (req, res) => {
      const remote = remoteOf(req);
      const principal = authorize(res, remote, 'admin', 'rotate the rollout webhook secret');
      const generation = await db.transaction(async (tx) => {
        const next = await rotateWebhook(tx, environment, remote, principal.name, now());
        if (next !== null)
          await appendAudit(tx, {
            ...actorOf(req, res),
            environment,
            remote,
            action: 'rollout-webhook',
            fromState: `secret ${next - 1}`,
            toState: `secret ${next}`,
            reason: 'rotated',
          });
        return next;
      });
      if (generation === null) throw new ApiError(404, 'not_found', `${remote} has no rollout webhook.`);
      res.set('cache-control', 'no-store').json(secretOf(remote, generation));
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
