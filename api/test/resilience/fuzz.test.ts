import { API_ERROR_CODES } from '@special-gift/shared/api';
import net from 'node:net';
import { startTestServer, type TestServer } from '../support/test-server';
import { postSignUp, XSRF_HEADERS } from '../support/http-client';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import type * as NativePglite from '../support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../support/native-pglite').loadPgliteNatively(),
);

// A corpus of malformed requests, from wrongly typed fields to broken HTTP: never a 5xx, every
// error body in the documented shape (api/openapi.yaml, ErrorBody), and the server healthy after.
jest.setTimeout(120_000);

/** Every `error.code` the API documents (shared/src/api/openapi.test.ts keeps it equal to api/openapi.yaml). */
const DOCUMENTED_CODES = new Set<string>(API_ERROR_CODES);

interface Case {
  readonly label: string;
  readonly send: (baseUrl: string) => Promise<{ status: number; contentType: string | null; body: string }>;
}

const cases: Case[] = [];
let card = 7_000_000_000_000;
const valid = () => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+441234567890',
  cardCode: makeTestCardCode(card++),
  acceptedTerms: true,
});

async function viaFetch(response: Promise<Response>) {
  const answer = await response;
  return { status: answer.status, contentType: answer.headers.get('content-type'), body: await answer.text() };
}

function post(label: string, body: unknown, options: Parameters<typeof postSignUp>[2] = {}) {
  cases.push({
    label,
    send: (baseUrl) =>
      viaFetch(postSignUp(baseUrl, typeof body === 'function' ? (body as () => unknown)() : body, options)),
  });
}

// 1. Every field with every wrong type and hostile string (6 fields x 22 values).
const hostile: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  4111111111111111,
  '',
  ' ',
  'x'.repeat(1000),
  [],
  {},
  [[[]]],
  { a: 1 },
  'A\u0000',
  '\u202eA',
  '\ud800',
  '😀'.repeat(60),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '\u0000'.repeat(100),
  'A\r\nSet-Cookie: x=1',
];
for (const field of ['firstName', 'lastName', 'email', 'phone', 'cardCode', 'acceptedTerms']) {
  hostile.forEach((value, index) => post(`${field} = hostile #${index}`, () => ({ ...valid(), [field]: value })));
}

// 2. Bodies that are not a sign-up object.
const rawBodies: Array<[string, string | Buffer]> = [
  ['empty', ''],
  ['whitespace', '   '],
  ['null', 'null'],
  ['true', 'true'],
  ['number', '42'],
  ['string', '"x"'],
  ['array', '[]'],
  ['array of objects', '[{"firstName":"Ada"}]'],
  ['truncated', '{"firstName":"Ada"'],
  ['trailing comma', '{"a":1,}'],
  ['single quotes', "{'a':1}"],
  ['comment', '{"a":1 /* c */}'],
  ['NaN', '{"a":NaN}'],
  ['Infinity', '{"a":Infinity}'],
  ['huge number', `{"a":1${'0'.repeat(400)}}`],
  ['BOM', '\ufeff{"a":1}'],
  ['two documents', '{}{}'],
  ['unquoted key', '{a:1}'],
  ['lone surrogate escape', '{"firstName":"\\ud800"}'],
  ['NUL escape', '{"firstName":"\\u0000"}'],
  ['raw control in string', '{"firstName":"A\u0001"}'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
  ['latin-1 bytes', Buffer.from('{"firstName":"Zoë"}', 'latin1')],
  ['UTF-16LE', Buffer.from('{"firstName":"Ada"}', 'utf16le')],
  ['overlong UTF-8', Buffer.from([0x7b, 0xc0, 0xaf, 0x7d])],
  ['__proto__ key', '{"__proto__":{"isAdmin":true},"firstName":"Ada"}'],
  ['constructor key', '{"constructor":{"prototype":{"x":1}}}'],
  ['duplicate keys', '{"firstName":"Ada","firstName":"\\u0000"}'],
  ['prototype key', '{"prototype":null}'],
  ['deep arrays 17', `{"a":${'['.repeat(17)}${']'.repeat(17)}}`],
  ['deep arrays 2500', `${'['.repeat(2500)}${']'.repeat(2500)}`],
  ['deep objects 3000', `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
  ['unbalanced deep', '['.repeat(10_000)],
  ['16 KiB + 1', `{"a":"${'x'.repeat(16 * 1024)}"}`],
  ['1 MiB', `{"a":"${'x'.repeat(1024 * 1024)}"}`],
  ['many keys', `{${Array.from({ length: 2000 }, (_, i) => `"k${i}":${i}`).join(',')}}`],
  ['escaped quote run', `{"a":"${'\\"'.repeat(3000)}"}`],
];
for (const [label, body] of rawBodies) post(`body: ${label}`, body);

// 3. Headers.
const contentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=utf-32',
  'application/json; charset="utf-16"',
  'application/json; charset=',
  'application/json;charset',
  'application/merge-patch+json',
  'json',
  '',
  ';;;',
  'application/json; charset=utf-8; charset=utf-16',
];
for (const type of contentTypes)
  post(`content-type ${JSON.stringify(type)}`, valid, { headers: { 'content-type': type } });
for (const [label, key] of [
  ['missing', null],
  ['empty', ''],
  ['201 chars', 'k'.repeat(201)],
  ['UTF-8 bytes', Buffer.from('clé').toString('latin1')],
] as const) {
  post(`idempotency key ${label}`, valid, { key });
}
for (const encoding of ['gzip', 'br', 'deflate', 'identity, gzip', 'x-unknown'])
  post(`content-encoding ${encoding}`, valid, { headers: { 'content-encoding': encoding } });
post('no XSRF header', valid, { headers: { 'x-xsrf-token': '' } });
post('XSRF mismatch', valid, { headers: { 'x-xsrf-token': 'other' } });
post('cross-site fetch', valid, { headers: { 'sec-fetch-site': 'cross-site' } });
post('foreign Origin', valid, { headers: { origin: 'https://evil.example' } });
post('Origin null', valid, { headers: { origin: 'null' } });
post('bearer junk', valid, { headers: { authorization: 'Bearer \u00ff' } });

// 4. Methods and paths.
const methods = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH'];
const paths = [
  '/v1/sign-ups',
  '/v1/sign-ups/00000000-0000-4000-8000-000000000000',
  '/v1/sign-ups/not-a-uuid',
  '/v1/health',
  '/v1/ready',
  '/',
  '/v1/sign-ups/%00',
  '/v1/sign-ups/%E0%A4%A',
  '/v1//sign-ups',
  '/v1/sign-ups/..%2f..%2fhealth',
  `/v1/${'a'.repeat(6000)}`,
  '/v1/sign-ups?x=%zz',
];
for (const method of methods) {
  for (const path of paths) {
    cases.push({
      label: `${method} ${path.slice(0, 40)}`,
      send: (baseUrl) =>
        viaFetch(
          fetch(`${baseUrl}${path}`, {
            method,
            headers: method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : XSRF_HEADERS,
          }),
        ),
    });
  }
}

// 5. Broken HTTP, written straight to a socket.
function raw(label: string, request: string | Buffer) {
  cases.push({
    label: `raw: ${label}`,
    send: (baseUrl) =>
      new Promise((resolve, reject) => {
        const { port } = new URL(baseUrl);
        const socket = net.connect(Number(port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
          const head = text.slice(0, text.indexOf('\r\n\r\n'));
          resolve({
            status,
            contentType: /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? null,
            body: text.slice(text.indexOf('\r\n\r\n') + 4),
          });
        });
        socket.end(request);
      }),
  });
}
const auth = `Cookie: ${XSRF_HEADERS.cookie}\r\nX-XSRF-TOKEN: ${XSRF_HEADERS['x-xsrf-token']}\r\nIdempotency-Key: raw\r\n`;
raw('garbage request line', 'HELLO\r\n\r\n');
raw('HTTP/0.9', 'GET /v1/health\r\n\r\n');
raw('unknown version', 'GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n');
raw('bad method characters', 'G(E)T /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
raw('space in the path', 'GET /v1/ health HTTP/1.1\r\nHost: x\r\n\r\n');
raw(
  'Content-Length abc',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n${auth}\r\n{}`,
);
raw(
  'Content-Length -1',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n${auth}\r\n{}`,
);
raw(
  'two Content-Lengths',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n${auth}\r\n{}`,
);
raw(
  'Content-Length and chunked',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n${auth}\r\n2\r\n{}\r\n0\r\n\r\n`,
);
raw(
  'bad chunk size',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${auth}\r\nzz\r\n{}\r\n0\r\n\r\n`,
);
raw(
  'unknown transfer coding',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n${auth}\r\n{}`,
);
raw(
  'chunked body over 16 KiB',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${auth}\r\n${(20_000).toString(16)}\r\n${'x'.repeat(20_000)}\r\n0\r\n\r\n`,
);
raw(
  'declared 200 MB',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n${auth}\r\n`,
);
raw('NUL in a header value', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n');
raw('header without a colon', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n');
raw('space before the colon', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n');
raw('obsolete line folding', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n');
raw('two Host headers', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n');
raw('CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
raw('bare LF line ends', 'GET /v1/health HTTP/1.1\nHost: x\n\n');
raw('20 KB header', `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
raw(
  '2,000 headers',
  `GET /v1/health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-${i}: v`).join('\r\n')}\r\n\r\n`,
);
raw('Expect: something', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n');
raw(
  'Expect: 100-continue with a bad body',
  `POST /v1/sign-ups HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nExpect: 100-continue\r\n${auth}\r\n{bad}`,
);
raw('no Host on HTTP/1.1', 'GET /v1/health HTTP/1.1\r\n\r\n');
raw('binary junk', Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
raw('TLS client hello', Buffer.from('16030100a5010000a103035f', 'hex'));
raw('request line of 70 KB', `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ signUpsPerMinute: 0 });
});
afterAll(async () => {
  await server?.close();
});

it(`answers a corpus of ${cases.length} malformed requests without a 5xx, each error in the documented shape, and stays healthy`, async () => {
  expect(cases.length).toBeGreaterThanOrEqual(300);
  const table = new Map<number, number>();
  const problems: string[] = [];
  for (const { label, send } of cases) {
    const { status, contentType, body } = await send(server.baseUrl);
    table.set(status, (table.get(status) ?? 0) + 1);
    if (status === 0 || status >= 500) problems.push(`${label}: status ${status}`);
    if (status >= 400 && body !== '') {
      let parsed: { error?: { code?: unknown; message?: unknown } } | undefined;
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        problems.push(`${label}: ${status} body is not JSON: ${body.slice(0, 80)}`);
        continue;
      }
      if (!contentType?.startsWith('application/json'))
        problems.push(`${label}: ${status} content-type ${String(contentType)}`);
      if (
        typeof parsed?.error?.code !== 'string' ||
        !DOCUMENTED_CODES.has(parsed.error.code) ||
        typeof parsed.error.message !== 'string'
      ) {
        problems.push(`${label}: ${status} body ${body.slice(0, 120)}`);
      }
    } else if (status >= 400 && !label.startsWith('HEAD')) problems.push(`${label}: ${status} without a body`);
  }
  console.log(
    `fuzz: ${cases.length} requests; statuses ${[...table.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')}`,
  );
  expect(problems).toEqual([]);

  expect((await fetch(`${server.baseUrl}/v1/health`)).status).toBe(200);
  expect((await fetch(`${server.baseUrl}/v1/ready`)).status).toBe(200);
  expect((await postSignUp(server.baseUrl, valid())).status).toBe(201);
  expect(server.logs.filter((entry) => entry.level === 'error')).toEqual([]);
});
