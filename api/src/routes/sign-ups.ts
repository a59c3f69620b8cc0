import { validateSignUp, type SignUp, type SignUpErrors } from '@special-gift/shared/validation';
import { Router, type RequestHandler, type Response } from 'express';
import type { Database, Queryable } from '../db/database';
import { answerOnce, type StoredAnswer } from '../db/idempotency-store';
import { findSignUpById, insertSignUp } from '../db/sign-up-repository';
import { ApiError, errorBody } from '../http/api-error';
import { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from '../http/idempotency-key';
import { isJsonObject, parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { requestHash } from '../http/request-hash';
import { signUpLocation, toPublicSignUp, type PublicSignUp } from './public-sign-up';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validationFailed(errors: SignUpErrors): StoredAnswer {
  return { status: 422, body: errorBody('validation_failed', 'Some fields are missing or invalid; see `fields`.', errors) };
}

async function register(tx: Queryable, signUp: SignUp): Promise<StoredAnswer> {
  const created = await insertSignUp(tx, signUp);
  if (!created) {
    return { status: 409, body: errorBody('card_already_registered', 'This card code is already registered.', { cardCode: 'already_registered' }) };
  }
  return { status: 201, body: toPublicSignUp(created) };
}

function sendAnswer(res: Response, answer: StoredAnswer): void {
  // A 201's body is always a PublicSignUp (see `register`), replayed or not.
  if (answer.status === 201) res.location(signUpLocation((answer.body as PublicSignUp).id));
  res.status(answer.status).json(answer.body);
}

function createSignUp(db: Database): RequestHandler {
  return async (req, res) => {
    const body: unknown = req.body;
    if (!isJsonObject(body)) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
    const key = readIdempotencyKey(req);
    if (key === null) {
      throw new ApiError(400, 'idempotency_key_required', `Send an ${IDEMPOTENCY_KEY_HEADER} header: 1-200 printable ASCII characters, new for each sign-up.`);
    }
    const checked = validateSignUp(body);
    // "Same request" means same normalised sign-up, so formatting differences (spaces in the card
    // code, key order, domain case) still replay. A rejected body can only be compared as sent.
    const hash = requestHash(checked.ok ? { signUp: checked.value } : { rejected: body });
    const outcome = await answerOnce(db, key, hash, (tx) => (checked.ok ? register(tx, checked.value) : Promise.resolve(validationFailed(checked.errors))));
    if (outcome.kind === 'key_reused') {
      throw new ApiError(422, 'idempotency_key_reused', `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request. Use a new key.`);
    }
    if (outcome.kind === 'replayed') res.set('Idempotent-Replayed', 'true');
    sendAnswer(res, outcome.answer);
  };
}

function getSignUp(db: Database): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const found = UUID.test(req.params.id) ? await findSignUpById(db, req.params.id) : null;
    if (!found) throw new ApiError(404, 'not_found', 'There is no sign-up with this id.');
    res.json(toPublicSignUp(found));
  };
}

export function signUpRoutes(db: Database): Router {
  const router = Router();
  router
    .route('/v1/sign-ups')
    .post(requireJsonContentType, parseJsonBody, createSignUp(db))
    .all(methodNotAllowed(['POST']));
  router
    .route('/v1/sign-ups/:id')
    .get(getSignUp(db))
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
