import { validateSignUp, type SignUp, type SignUpErrors } from '@special-gift/shared/validation';
import { Router, type RequestHandler, type Response } from 'express';
import type { Database, Queryable } from '../db/database';
import { answerOnce, type IdempotentOutcome, type StoredAnswer } from '../db/idempotency-store';
import { addReadTokenHash, findSignUpForReader, insertSignUp } from './store';
import { ApiError, errorBody } from '../http/api-error';
import { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from '../http/idempotency-key';
import { isJsonObject, parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { signUpRateLimit } from '../http/rate-limit';
import { requestHash } from '../http/request-hash';
import type { CreatedSignUp, PublicSignUp } from '@special-gift/shared/api';
import { signUpLocation, toPublicSignUp } from './public-sign-up';
import { createReadToken, hashReadToken, readBearerToken } from './read-token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SignUpRouteOptions {
  readonly idempotencyKeyTtlHours: number;
  readonly signUpsPerMinute: number;
}

function validationFailed(errors: SignUpErrors): StoredAnswer {
  return {
    status: 422,
    body: errorBody('validation_failed', 'Some fields are missing or invalid; see `fields`.', errors),
  };
}

/** The answer as stored for replays: a 201 holds the public sign-up, never its read token. */
async function register(tx: Queryable, signUp: SignUp, readTokenHash: string): Promise<StoredAnswer> {
  const created = await insertSignUp(tx, signUp, readTokenHash);
  if (!created) {
    return {
      status: 409,
      body: errorBody('card_already_registered', 'This card code is already registered.', {
        cardCode: 'already_registered',
      }),
    };
  }
  return { status: 201, body: toPublicSignUp(created) };
}

/**
 * The answer with the creator's read token in a 201: the one stored (as its hash) with the
 * sign-up, or for a replay a new one, added to the sign-up's tokens (the stored answer has none).
 */
async function withReadToken(
  db: Database,
  outcome: Exclude<IdempotentOutcome, { kind: 'key_reused' }>,
  issued: string | undefined,
): Promise<StoredAnswer> {
  const { answer } = outcome;
  if (answer.status !== 201) return answer;
  const signUp = answer.body as PublicSignUp;
  let readToken = issued;
  if (outcome.kind === 'replayed' || readToken === undefined) {
    const fresh = createReadToken();
    await addReadTokenHash(db, signUp.id, fresh.hash);
    readToken = fresh.token;
  }
  const body: CreatedSignUp = { ...signUp, readToken };
  return { status: 201, body };
}

function sendAnswer(res: Response, answer: StoredAnswer): void {
  // A 201's body is always a CreatedSignUp (see `withReadToken`), replayed or not.
  if (answer.status === 201) res.location(signUpLocation((answer.body as CreatedSignUp).id));
  res.status(answer.status).json(answer.body);
}

function createSignUp(db: Database, { idempotencyKeyTtlHours }: SignUpRouteOptions): RequestHandler {
  return async (req, res) => {
    const body: unknown = req.body;
    if (!isJsonObject(body)) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
    const key = readIdempotencyKey(req);
    if (key === null) {
      throw new ApiError(
        400,
        'idempotency_key_required',
        `Send an ${IDEMPOTENCY_KEY_HEADER} header: 1-200 printable ASCII characters, new for each sign-up.`,
      );
    }
    const checked = validateSignUp(body);
    // "Same request" means same normalised sign-up, so formatting differences (spaces in the card
    // code, key order, domain case) still replay. A rejected body can only be compared as sent.
    const hash = requestHash(checked.ok ? { signUp: checked.value } : { rejected: body });
    let issued: string | undefined;
    const outcome = await answerOnce(
      db,
      key,
      hash,
      (tx) => {
        if (!checked.ok) return Promise.resolve(validationFailed(checked.errors));
        const { token, hash: tokenHash } = createReadToken();
        issued = token;
        return register(tx, checked.value, tokenHash);
      },
      { ttlHours: idempotencyKeyTtlHours },
    );
    if (outcome.kind === 'key_reused') {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request. Use a new key.`,
      );
    }
    if (outcome.kind === 'replayed') res.set('Idempotent-Replayed', 'true');
    sendAnswer(res, await withReadToken(db, outcome, issued));
  };
}

function getSignUp(db: Database): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const token = readBearerToken(req);
    // Unknown id, no token and a wrong token all look the same: nothing tells whether the id exists.
    const found =
      token !== null && UUID.test(req.params.id)
        ? await findSignUpForReader(db, req.params.id, hashReadToken(token))
        : null;
    if (!found) throw new ApiError(404, 'not_found', 'There is no sign-up with this id for this token.');
    res.json(toPublicSignUp(found));
  };
}

export function signUpRoutes(db: Database, options: SignUpRouteOptions): Router {
  const router = Router();
  router
    .route('/v1/sign-ups')
    .post(
      signUpRateLimit({ perMinute: options.signUpsPerMinute }),
      requireJsonContentType,
      parseJsonBody,
      createSignUp(db, options),
    )
    .all(methodNotAllowed(['POST']));
  router
    .route('/v1/sign-ups/:id')
    .get(getSignUp(db))
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
