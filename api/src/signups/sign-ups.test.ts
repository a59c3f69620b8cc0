import net from 'node:net';
import { INVALID_CHECKSUM_TEST_CARD_CODE, makeTestCardCode } from '@special-gift/shared/testing/cards';
import { expectOneSignUpReplayed, postSignUp, XSRF_HEADERS } from '../../test/support/http-client';
import { testEngines } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

// Opening a fresh PGlite takes seconds: one database per engine for the whole file, a new card per test.
jest.setTimeout(30_000);

let nextCard = 1;
const freshCard = () => makeTestCardCode(4_000_000_000_000 + nextCard++);

describe.each(testEngines())('on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => {
    await server?.close();
  });

  function validBody(cardCode = freshCard()) {
    return {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+441234567890',
      cardCode,
      acceptedTerms: true,
    };
  }

  async function rowsForCard(cardCode: string): Promise<number> {
    const result = await server.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM sign_ups WHERE card_code = $1',
      [cardCode],
    );
    return result.rows[0]?.count ?? -1;
  }

  describe('POST /v1/sign-ups', () => {
    it('creates a sign-up: 201, normalised values, Location, no full card code', async () => {
      const card = freshCard();
      const spaced = card.replace(/(\d{4})(?=\d)/g, '$1 ');
      const response = await postSignUp(server.baseUrl, {
        firstName: '  Ada ',
        lastName: ' Lovelace ',
        email: ' Ada@Example.COM ',
        phone: '0044 (20) 7946-0958',
        cardCode: spaced,
        acceptedTerms: true,
      });

      expect(response.status).toBe(201);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'Ada@example.com',
        phone: '+442079460958',
        cardLast4: card.slice(-4),
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        readToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(Math.abs(Date.parse(String(body.createdAt)) - Date.now())).toBeLessThan(60_000);
      expect(response.headers.get('location')).toBe(`sign-ups/${String(body.id)}`);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      expect(JSON.stringify(body)).not.toContain(card);

      const stored = await server.db.query<Record<string, unknown>>(
        'SELECT first_name, email, phone, card_code FROM sign_ups WHERE id = $1',
        [body.id],
      );
      expect(stored.rows).toEqual([
        { first_name: 'Ada', email: 'Ada@example.com', phone: '+442079460958', card_code: card },
      ]);
    });

    it('stores a missing or blank phone as null', async () => {
      const { phone: _phone, ...withoutPhone } = validBody();
      const absent = await postSignUp(server.baseUrl, withoutPhone);
      const blank = await postSignUp(server.baseUrl, { ...validBody(), phone: '  ' });
      expect(absent.status).toBe(201);
      expect(blank.status).toBe(201);
      expect(((await absent.json()) as { phone: unknown }).phone).toBeNull();
      expect(((await blank.json()) as { phone: unknown }).phone).toBeNull();
    });

    it('answers 422 validation_failed with a code per invalid field, and stores nothing', async () => {
      const response = await postSignUp(server.baseUrl, {
        firstName: '',
        lastName: 'x'.repeat(51),
        email: 'ada@localhost',
        phone: '12345',
        cardCode: INVALID_CHECKSUM_TEST_CARD_CODE,
        acceptedTerms: 'yes',
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        error: {
          code: 'validation_failed',
          message: expect.any(String),
          fields: {
            firstName: 'required',
            lastName: 'too_long',
            email: 'invalid_email',
            phone: 'invalid_phone',
            cardCode: 'card_checksum',
            acceptedTerms: 'consent_required',
          },
        },
      });
      expect(await rowsForCard(INVALID_CHECKSUM_TEST_CARD_CODE)).toBe(0);
    });

    it('answers wrongly typed fields with field errors, not a crash', async () => {
      const response = await postSignUp(server.baseUrl, {
        firstName: 1,
        lastName: ['L'],
        email: {},
        cardCode: 4111111111111111,
        acceptedTerms: 'true',
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { fields: unknown } }).error.fields).toEqual({
        firstName: 'required',
        lastName: 'required',
        email: 'invalid_email',
        cardCode: 'invalid_card_code',
        acceptedTerms: 'consent_required',
      });
    });

    it('refuses names without a visible letter and the all-zero card code', async () => {
      for (const invisible of ['\u200b', '\u200d', '\ufffe', '\uffff', '\u{e0001}']) {
        const response = await postSignUp(server.baseUrl, {
          ...validBody(),
          firstName: invisible,
          lastName: `L${invisible}`,
        });
        expect(response.status).toBe(422);
        const { fields } = ((await response.json()) as { error: { fields: Record<string, string> } }).error;
        expect(fields.firstName).toMatch(/^(required|invalid_characters)$/);
      }
      const zeros = await postSignUp(server.baseUrl, { ...validBody(), cardCode: '0000000000000000' });
      expect(zeros.status).toBe(422);
      expect(((await zeros.json()) as { error: { fields: unknown } }).error.fields).toEqual({
        cardCode: 'invalid_card_code',
      });
    });

    it('answers 409 card_already_registered for a card that is taken', async () => {
      const card = freshCard();
      expect((await postSignUp(server.baseUrl, validBody(card))).status).toBe(201);
      // Same card, formatted differently, by someone else.
      const response = await postSignUp(server.baseUrl, {
        ...validBody(card),
        firstName: 'Grace',
        cardCode: card.replace(/(\d{4})(?=\d)/g, '$1-'),
      });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        error: {
          code: 'card_already_registered',
          message: expect.any(String),
          fields: { cardCode: 'already_registered' },
        },
      });
      expect(await rowsForCard(card)).toBe(1);
    });

    describe('rejects a bad request before anything is stored', () => {
      it.each([
        ['text/plain', 'text/plain'],
        ['form data', 'application/x-www-form-urlencoded'],
        ['a +json type', 'application/merge-patch+json'],
      ])('415 unsupported_media_type for %s', async (_label, contentType) => {
        const response = await postSignUp(server.baseUrl, validBody(), { headers: { 'content-type': contentType } });
        expect(response.status).toBe(415);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      });

      it('accepts application/json with a charset', async () => {
        const response = await postSignUp(server.baseUrl, validBody(), {
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
        expect(response.status).toBe(201);
      });

      it('415 for a non-UTF-8 charset', async () => {
        const response = await postSignUp(server.baseUrl, validBody(), {
          headers: { 'content-type': 'application/json; charset=latin1' },
        });
        expect(response.status).toBe(415);
      });

      it('413 payload_too_large as JSON for a body over 16 KiB, but takes one just under', async () => {
        const padded = (size: number) => {
          const body = JSON.stringify({ ...validBody(), note: '' });
          return body.replace('"note":""', `"note":"${'x'.repeat(size - body.length)}"`);
        };
        const tooBig = await postSignUp(server.baseUrl, padded(16 * 1024 + 1));
        expect(tooBig.status).toBe(413);
        expect(tooBig.headers.get('content-type')).toMatch(/^application\/json/);
        expect(((await tooBig.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');

        const justFits = await postSignUp(server.baseUrl, padded(16 * 1024));
        expect(justFits.status).toBe(201);
      });

      it('415 for a UTF-16 charset, and for a body that is not valid UTF-8', async () => {
        const utf16 = await postSignUp(server.baseUrl, validBody(), {
          headers: { 'content-type': 'application/json; charset=utf-16' },
        });
        expect(utf16.status).toBe(415);
        const latin1 = await postSignUp(
          server.baseUrl,
          Buffer.from(JSON.stringify({ ...validBody(), firstName: 'Zoë' }), 'latin1'),
        );
        expect(latin1.status).toBe(415);
        expect(((await latin1.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      });

      it('422 invalid_characters for a NUL or a direction override in a name, and stores nothing', async () => {
        const card = freshCard();
        const response = await postSignUp(server.baseUrl, {
          ...validBody(card),
          firstName: 'Ada\u0000',
          lastName: 'Love\u202elace',
        });
        expect(response.status).toBe(422);
        expect(((await response.json()) as { error: { fields: unknown } }).error.fields).toEqual({
          firstName: 'invalid_characters',
          lastName: 'invalid_characters',
        });
        expect(await rowsForCard(card)).toBe(0);
      });

      it('400 invalid_body for nesting deeper than 16 levels, before parsing or hashing', async () => {
        const deep = `{"firstName":${'['.repeat(2500)}${']'.repeat(2500)}}`;
        const response = await postSignUp(server.baseUrl, deep);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_body');
        expect((await postSignUp(server.baseUrl, `{"a":${'['.repeat(15)}${']'.repeat(15)}}`)).status).toBe(422);
      });

      it('413 for a declared Content-Length over the limit, answered before any body is sent, and the connection closed', async () => {
        const { port } = new URL(server.baseUrl);
        const socket = net.connect(Number(port), '127.0.0.1');
        const answer = await new Promise<string>((resolve, reject) => {
          let text = '';
          socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
          socket.write(
            `POST /v1/sign-ups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\nCookie: ${XSRF_HEADERS.cookie}\r\nX-XSRF-TOKEN: ${XSRF_HEADERS['x-xsrf-token']}\r\nIdempotency-Key: big\r\n\r\n`,
          );
        });
        expect(answer).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer).toMatch(/\r\nConnection: close\r\n/i);
        expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
          error: { code: 'payload_too_large', message: expect.any(String) },
        });
      });

      it('400 invalid_json for malformed JSON', async () => {
        const response = await postSignUp(server.baseUrl, '{"firstName": "Ada",');
        expect(response.status).toBe(400);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('invalid_json');
        expect(body.error.message).not.toMatch(/at |\.ts|\.js/); // no stack, no internals
      });

      it.each([
        ['an array', '[]'],
        ['a string', '"sign me up"'],
        ['a number', '42'],
        ['null', 'null'],
      ])('400 invalid_body for %s', async (_label, body) => {
        const response = await postSignUp(server.baseUrl, body);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_body');
      });

      it.each([
        ['missing', null],
        ['empty', ''],
        ['over 200 characters', 'k'.repeat(201)],
        ['non-ASCII', 'clé-1'],
      ])('400 idempotency_key_required when the key is %s', async (_label, key) => {
        const card = freshCard();
        const response =
          key === 'clé-1'
            ? // fetch refuses non-Latin-1 header values, so send the UTF-8 bytes as Latin-1 text.
              await postSignUp(server.baseUrl, validBody(card), { key: Buffer.from(key).toString('latin1') })
            : await postSignUp(server.baseUrl, validBody(card), { key });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_required');
        expect(await rowsForCard(card)).toBe(0);
      });

      it('accepts a 200-character key', async () => {
        const response = await postSignUp(server.baseUrl, validBody(), {
          key: `${'k'.repeat(190)}${String(Date.now()).slice(-10)}`,
        });
        expect(response.status).toBe(201);
      });

      it('403 xsrf_mismatch without the XSRF header, and nothing is stored', async () => {
        const card = freshCard();
        const response = await fetch(`${server.baseUrl}/v1/sign-ups`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': 'no-xsrf',
            cookie: XSRF_HEADERS.cookie ?? '',
          },
          body: JSON.stringify(validBody(card)),
        });
        expect(response.status).toBe(403);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('xsrf_mismatch');
        expect(await rowsForCard(card)).toBe(0);
      });

      it('403 xsrf_mismatch when header and cookie differ', async () => {
        const response = await postSignUp(server.baseUrl, validBody(), {
          headers: { 'x-xsrf-token': 'something-else' },
        });
        expect(response.status).toBe(403);
      });
    });

    describe('idempotency', () => {
      it('replays the first answer for the same key and the same request, creating one sign-up', async () => {
        const card = freshCard();
        const key = crypto.randomUUID();
        const first = await postSignUp(server.baseUrl, validBody(card), { key });
        // The same sign-up written differently: key order, spacing, domain case, card dashes.
        const { cardCode: _cardCode, ...rest } = validBody(card);
        const again = await postSignUp(
          server.baseUrl,
          { cardCode: card.replace(/(\d{4})(?=\d)/g, '$1-'), ...rest, email: 'ada@EXAMPLE.com', firstName: ' Ada' },
          { key },
        );

        expect(first.status).toBe(201);
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.headers.get('location')).toBe(first.headers.get('location'));
        // The same sign-up, with a read token of its own (the first one is not stored to replay it).
        const { readToken: firstToken, ...firstSignUp } = (await first.json()) as { id: string; readToken: string };
        const { readToken: againToken, ...againSignUp } = (await again.json()) as { id: string; readToken: string };
        expect(againSignUp).toEqual(firstSignUp);
        expect(againToken).not.toBe(firstToken);
        for (const token of [firstToken, againToken]) {
          expect(
            (
              await fetch(`${server.baseUrl}/v1/sign-ups/${firstSignUp.id}`, {
                headers: { authorization: `Bearer ${token}` },
              })
            ).status,
          ).toBe(200);
        }
        expect(await rowsForCard(card)).toBe(1);
      });

      it('replays a stored 409 and a stored 422 too', async () => {
        const card = freshCard();
        await postSignUp(server.baseUrl, validBody(card));
        const conflictKey = crypto.randomUUID();
        const conflict = await postSignUp(server.baseUrl, validBody(card), { key: conflictKey });
        const conflictAgain = await postSignUp(server.baseUrl, validBody(card), { key: conflictKey });
        expect([conflict.status, conflictAgain.status]).toEqual([409, 409]);
        expect(conflictAgain.headers.get('idempotent-replayed')).toBe('true');
        expect(await conflictAgain.json()).toEqual(await conflict.json());

        const invalidKey = crypto.randomUUID();
        const invalidBody = { ...validBody(), email: 'nope' };
        const invalid = await postSignUp(server.baseUrl, invalidBody, { key: invalidKey });
        const invalidAgain = await postSignUp(server.baseUrl, invalidBody, { key: invalidKey });
        expect([invalid.status, invalidAgain.status]).toEqual([422, 422]);
        expect(invalidAgain.headers.get('idempotent-replayed')).toBe('true');
        expect(await invalidAgain.json()).toEqual(await invalid.json());
      });

      it('answers 422 idempotency_key_reused for the same key with a different request', async () => {
        const key = crypto.randomUUID();
        const firstCard = freshCard();
        const otherCard = freshCard();
        expect((await postSignUp(server.baseUrl, validBody(firstCard), { key })).status).toBe(201);

        const reused = await postSignUp(server.baseUrl, validBody(otherCard), { key });
        expect(reused.status).toBe(422);
        expect(reused.headers.get('idempotent-replayed')).toBeNull();
        expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
        expect(await rowsForCard(otherCard)).toBe(0);
      });

      it('does not replay across different keys: a new key for the same card is a 409', async () => {
        const card = freshCard();
        expect((await postSignUp(server.baseUrl, validBody(card))).status).toBe(201);
        expect((await postSignUp(server.baseUrl, validBody(card))).status).toBe(409);
      });
    });

    describe('concurrency (a double click, or an impatient retry loop)', () => {
      // More than two requests in flight, so an unserialised check-then-insert would interleave.
      const PARALLEL = 8;

      it('simultaneous requests with the same key create one sign-up; the others are replays', async () => {
        const card = freshCard();
        const key = crypto.randomUUID();
        const responses = await Promise.all(
          Array.from({ length: PARALLEL }, () => postSignUp(server.baseUrl, validBody(card), { key })),
        );

        await expectOneSignUpReplayed(responses);
        expect(await rowsForCard(card)).toBe(1);
      });

      it('simultaneous requests for the same card with different keys: one 201, the rest 409', async () => {
        const card = freshCard();
        const responses = await Promise.all(
          Array.from({ length: PARALLEL }, () => postSignUp(server.baseUrl, validBody(card))),
        );

        const statuses = responses.map((response) => response.status).sort();
        expect(statuses).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
        expect(await rowsForCard(card)).toBe(1);
      });
    });
  });

  describe('GET /v1/sign-ups/:id', () => {
    async function created() {
      const response = await postSignUp(server.baseUrl, validBody());
      const body = (await response.json()) as { id: string; readToken: string } & Record<string, unknown>;
      // Resolved against the request URL, as a client does.
      const location = new URL(response.headers.get('location') ?? '', `${server.baseUrl}/v1/sign-ups`);
      return { body, location };
    }

    it('returns the sign-up to its creator, who holds the read token from the 201', async () => {
      const { body, location } = await created();
      expect(location.pathname).toMatch(/^\/v1\/sign-ups\/[0-9a-f-]{36}$/);
      const response = await fetch(location, { headers: { authorization: `Bearer ${body.readToken}` } });
      expect(response.status).toBe(200);
      const { readToken: _token, ...publicSignUp } = body;
      expect(await response.json()).toEqual(publicSignUp);
    });

    it('stores only a hash of the read token: with the sign-up, and nowhere in the answer kept for replays', async () => {
      const { body } = await created();
      const stored = await server.db.query<{ read_token_hashes: string[] }>(
        'SELECT read_token_hashes FROM sign_ups WHERE id = $1',
        [body.id],
      );
      expect(stored.rows[0]?.read_token_hashes).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
      const everything = await server.db.query<{ dump: string }>(
        `SELECT (SELECT json_agg(s)::text FROM sign_ups s) || (SELECT json_agg(k)::text FROM idempotency_keys k) AS dump`,
      );
      expect(everything.rows[0]?.dump).toContain(body.id);
      expect(everything.rows[0]?.dump).not.toContain(body.readToken);
    });

    it('keeps the most recent ten read tokens of a sign-up replayed many times', async () => {
      const key = crypto.randomUUID();
      const body = validBody();
      const tokens: string[] = [];
      let id = '';
      for (let replay = 0; replay < 12; replay += 1) {
        const answer = (await (await postSignUp(server.baseUrl, body, { key })).json()) as {
          id: string;
          readToken: string;
        };
        tokens.push(answer.readToken);
        id = answer.id;
      }
      const statuses = await Promise.all(
        tokens.map(
          async (token) =>
            (await fetch(`${server.baseUrl}/v1/sign-ups/${id}`, { headers: { authorization: `Bearer ${token}` } }))
              .status,
        ),
      );
      expect(statuses).toEqual([404, 404, ...Array(10).fill(200)]);
    });

    it('404 for the id alone, another sign-up’s token or a malformed token: nothing says the id exists', async () => {
      const { body, location } = await created();
      const other = await created();
      for (const headers of [
        {} as Record<string, string>,
        { authorization: `Bearer ${other.body.readToken}` },
        { authorization: `Bearer ${body.readToken}x` },
        { authorization: body.readToken },
      ]) {
        const response = await fetch(location, { headers });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      }
    });

    it.each([
      ['an unknown id', '00000000-0000-4000-8000-000000000000'],
      ['an id that is not a UUID', 'not-a-uuid'],
    ])('404 not_found for %s', async (_label, id) => {
      const { body } = await created();
      const response = await fetch(`${server.baseUrl}/v1/sign-ups/${id}`, {
        headers: { authorization: `Bearer ${body.readToken}` },
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    });
  });

  describe('method handling on sign-up paths', () => {
    it('405 with Allow for GET on the collection', async () => {
      const response = await fetch(`${server.baseUrl}/v1/sign-ups`);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    });

    it('405 with Allow for DELETE on a sign-up', async () => {
      const response = await fetch(`${server.baseUrl}/v1/sign-ups/00000000-0000-4000-8000-000000000000`, {
        method: 'DELETE',
        headers: XSRF_HEADERS,
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });
  });
});
