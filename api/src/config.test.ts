import path from 'node:path';
import { IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS, SIGN_UP_OUTBOX_MAX_AGE_HOURS } from '@special-gift/shared/api';
import { DEFAULT_DATA_DIR, readConfig, readOperatorToken } from './config';
import { DEFAULT_RUNNER_SETTINGS } from './rollout-runner';
import { DEFAULT_ROLLOUT_RULE } from './rollouts';

describe('readConfig', () => {
  it('has local defaults: port 3004 on all interfaces, PGlite in the repo .data/api with fsync on, no Secure cookie', () => {
    expect(readConfig({})).toEqual({
      port: 3004,
      host: '0.0.0.0',
      database: { engine: 'pglite', dataDir: DEFAULT_DATA_DIR, fsync: true, lockWaitMs: 20_000 },
      cookieSecure: false,
      allowedOrigins: [],
      trustedProxies: [],
      signUpsPerMinute: 20,
      idempotencyKeyTtlHours: 24,
      shutdownDelayMs: 0,
      shutdownGraceMs: 10_000,
      telemetryBatchesPerMinute: 60,
      telemetryRetentionDays: 30,
      authFailuresPerMinute: 30,
      operatorToken: undefined,
      releaseEnvironment: 'production',
      pageTokenKey: undefined,
      pageTokensPerMinute: 60,
      rolloutRule: DEFAULT_ROLLOUT_RULE,
      releaseStateStore: undefined,
      releaseStateKeys: [],
      rolloutRunner: DEFAULT_RUNNER_SETTINGS,
    });
    expect(path.relative(path.resolve(__dirname, '..', '..'), DEFAULT_DATA_DIR)).toBe(path.join('.data', 'api'));
  });

  it('reads every setting from the environment', () => {
    expect(
      readConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        API_DATA_DIR: '/var/lib/special-gift',
        PGLITE_FSYNC: 'off',
        COOKIE_SECURE: 'true',
        PUBLIC_ORIGIN: 'http://gift.example, http://localhost:3000',
        SIGN_UPS_PER_MINUTE: '0',
        IDEMPOTENCY_KEY_TTL_HOURS: '48',
        SHUTDOWN_DELAY_MS: '2000',
        SHUTDOWN_GRACE_MS: '5000',
        DATA_DIR_LOCK_WAIT_MS: '30000',
        TRUSTED_PROXIES: 'host, 10.0.0.0/8, 192.0.2.7, fd00::/8, Proxy.internal',
        TELEMETRY_BATCHES_PER_MINUTE: '0',
        TELEMETRY_RETENTION_DAYS: '7',
        AUTH_FAILURES_PER_MINUTE: '5',
        OPERATOR_TOKEN: 'o'.repeat(32),
        RELEASE_ENVIRONMENT: 'staging',
        PAGE_TOKEN_KEY: 'k'.repeat(32),
        PAGE_TOKENS_PER_MINUTE: '0',
        ROLLOUT_MIN_VIEWS: '50',
        ROLLOUT_LOW_TRAFFIC: 'hold',
        RELEASE_STATE_STORE: '/srv/builds',
        RELEASE_STATE_KEYS: `k2:${'n'.repeat(32)},k1:${'o'.repeat(40)}`,
        ROLLOUT_RUNNER: 'off',
        ROLLOUT_TICK_SECONDS: '1',
        ROLLOUT_LEASE_SECONDS: '3',
        ROLLOUT_MIN_STEP_DWELL_SECONDS: '2',
        ROLLOUT_GATE_CLAIM_SECONDS: '30',
        ROLLOUT_HOST_URL: 'http://host:8080',
        GATE_RUNNER_TOKEN: 'g'.repeat(32),
        ROLLOUT_WEBHOOK_KEY: 'w'.repeat(32),
        ROLLOUT_WEBHOOK_HOSTS: 'receiver, hooks.example.com:8443',
      }),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      database: { engine: 'pglite', dataDir: '/var/lib/special-gift', fsync: false, lockWaitMs: 30_000 },
      cookieSecure: true,
      allowedOrigins: ['http://gift.example', 'http://localhost:3000'],
      trustedProxies: ['host', '10.0.0.0/8', '192.0.2.7', 'fd00::/8', 'proxy.internal'],
      signUpsPerMinute: 0,
      idempotencyKeyTtlHours: 48,
      shutdownDelayMs: 2000,
      shutdownGraceMs: 5000,
      telemetryBatchesPerMinute: 0,
      telemetryRetentionDays: 7,
      authFailuresPerMinute: 5,
      operatorToken: 'o'.repeat(32),
      releaseEnvironment: 'staging',
      pageTokenKey: 'k'.repeat(32),
      pageTokensPerMinute: 0,
      rolloutRule: { ...DEFAULT_ROLLOUT_RULE, minViews: 50, lowTraffic: 'hold' },
      releaseStateStore: '/srv/builds',
      releaseStateKeys: [
        { id: 'k2', secret: 'n'.repeat(32) },
        { id: 'k1', secret: 'o'.repeat(40) },
      ],
      rolloutRunner: {
        enabled: false,
        tickSeconds: 1,
        leaseSeconds: 3,
        minStepDwellSeconds: 2,
        gateClaimSeconds: 30,
        hostUrl: 'http://host:8080',
        gateRunnerToken: 'g'.repeat(32),
        webhookKey: 'w'.repeat(32),
        webhookHosts: ['receiver', 'hooks.example.com:8443'],
      },
    });
  });

  it('takes an S3 bucket for the release state with PostgreSQL', () => {
    expect(
      readConfig({ RELEASE_STATE_STORE: 's3://sg-builds/builds', DATABASE_URL: 'postgres://db/x' }).releaseStateStore,
    ).toBe('s3://sg-builds/builds');
  });

  it('derives the release state key from the operator token when none is set, never the token itself', () => {
    const [key, ...others] = readConfig({ OPERATOR_TOKEN: 'o'.repeat(32) }).releaseStateKeys;
    expect(others).toEqual([]);
    expect(key?.id).toBe('local');
    expect(key?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key?.secret).not.toContain('o'.repeat(32));
    expect(readConfig({ OPERATOR_TOKEN: 'p'.repeat(32) }).releaseStateKeys[0]?.secret).not.toBe(key?.secret);
  });

  it.each([
    [{ RELEASE_STATE_STORE: '.data/builds' }, 'RELEASE_STATE_STORE must be the build store'],
    [{ RELEASE_STATE_STORE: 's3://sg-builds/builds' }, 'RELEASE_STATE_STORE=s3://… needs PostgreSQL (DATABASE_URL)'],
    [{ RELEASE_STATE_STORE: 's3://', DATABASE_URL: 'postgres://db/x' }, 'or s3://bucket/prefix, got "s3://"'],
    [{ RELEASE_STATE_KEYS: 'k1:short' }, 'RELEASE_STATE_KEYS: the secret of key "k1" has fewer than 32 characters'],
    [{ ROLLOUT_TICK_SECONDS: '10', ROLLOUT_LEASE_SECONDS: '20' }, 'must be at least 3 × ROLLOUT_TICK_SECONDS'],
    [{ ROLLOUT_HOST_URL: 'host:8080' }, "ROLLOUT_HOST_URL must be the live host's origin"],
    [{ GATE_RUNNER_TOKEN: 'short' }, 'GATE_RUNNER_TOKEN must be at least 32'],
    [
      { GATE_RUNNER_TOKEN: 'o'.repeat(32), OPERATOR_TOKEN: 'o'.repeat(32) },
      'GATE_RUNNER_TOKEN must differ from OPERATOR_TOKEN',
    ],
    [{ ROLLOUT_RUNNER: 'maybe' }, 'ROLLOUT_RUNNER must be on or off'],
    [{ ROLLOUT_WEBHOOK_KEY: 'short' }, 'ROLLOUT_WEBHOOK_KEY must be at least 32'],
    [{ ROLLOUT_WEBHOOK_HOSTS: 'https://receiver' }, 'ROLLOUT_WEBHOOK_HOSTS must list host names or host:port'],
  ])('refuses %p at start-up', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });

  it('keeps an idempotency key at least as long as a device queues a sign-up offline, and refuses a shorter TTL', () => {
    // A replay after the key expired would be refused (409): the user told their own sign-up was refused.
    // (The device's queue computes its age from the same hours: shared/src/contract/sign-up.ts.)
    expect(IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS).toBeGreaterThanOrEqual(SIGN_UP_OUTBOX_MAX_AGE_HOURS);
    expect(readConfig({}).idempotencyKeyTtlHours).toBe(IDEMPOTENCY_KEY_DEFAULT_TTL_HOURS);
    expect(readConfig({ IDEMPOTENCY_KEY_TTL_HOURS: String(SIGN_UP_OUTBOX_MAX_AGE_HOURS) }).idempotencyKeyTtlHours).toBe(
      SIGN_UP_OUTBOX_MAX_AGE_HOURS,
    );
    expect(() => readConfig({ IDEMPOTENCY_KEY_TTL_HOURS: String(SIGN_UP_OUTBOX_MAX_AGE_HOURS - 1) })).toThrow(
      /IDEMPOTENCY_KEY_TTL_HOURS must be an integer from 20 to/,
    );
  });

  it('refuses a short page token key at start-up', () => {
    expect(() => readConfig({ PAGE_TOKEN_KEY: 'short' })).toThrow(/PAGE_TOKEN_KEY must be at least 32 characters/);
  });

  it('refuses a short operator token and a bad release environment at start-up', () => {
    expect(() => readConfig({ OPERATOR_TOKEN: 'short' })).toThrow(/OPERATOR_TOKEN must be at least 32/);
    expect(() => readConfig({ OPERATOR_TOKEN: `${'o'.repeat(32)} x` })).toThrow(/OPERATOR_TOKEN/);
    expect(() => readConfig({ RELEASE_ENVIRONMENT: 'Prod!' })).toThrow(/RELEASE_ENVIRONMENT/);
  });

  it('uses PostgreSQL when DATABASE_URL is set, with a pool of DATABASE_POOL_SIZE', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://u:p@db:5432/gift', API_DATA_DIR: '/ignored' }).database).toEqual({
      engine: 'postgres',
      url: 'postgres://u:p@db:5432/gift',
      poolSize: 10,
    });
    expect(readConfig({ DATABASE_URL: 'postgresql://db/gift', DATABASE_POOL_SIZE: '4' }).database).toEqual({
      engine: 'postgres',
      url: 'postgresql://db/gift',
      poolSize: 4,
    });
    expect(() => readConfig({ DATABASE_URL: 'mysql://db/gift' })).toThrow(/DATABASE_URL/);
  });

  it('resolves a relative data dir against the working directory', () => {
    expect(readConfig({ API_DATA_DIR: 'data' }).database).toMatchObject({
      dataDir: path.resolve(process.cwd(), 'data'),
    });
  });

  it('turns Secure on for COOKIE_SECURE=true exactly, or when the public origin is HTTPS', () => {
    for (const COOKIE_SECURE of ['1', 'TRUE', 'yes', 'false', ''])
      expect(readConfig({ COOKIE_SECURE }).cookieSecure).toBe(false);
    expect(readConfig({ PUBLIC_ORIGIN: 'https://gift.example' }).cookieSecure).toBe(true);
    expect(readConfig({ PUBLIC_ORIGIN: 'http://localhost:3000' }).cookieSecure).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '3.5'],
    ['PORT', ' 80'],
    ['PGLITE_FSYNC', 'maybe'],
    ['DATABASE_POOL_SIZE', '0'],
    ['PUBLIC_ORIGIN', 'gift.example'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', 'http://host'],
    ['TRUSTED_PROXIES', 'host,'],
    ['TRUSTED_PROXIES', '*'],
    ['DATA_DIR_LOCK_WAIT_MS', '-1'],
    ['PUBLIC_ORIGIN', 'https://gift.example/path'],
    ['SIGN_UPS_PER_MINUTE', 'lots'],
  ])('fails fast on %s=%j', (name, value) => {
    const env =
      name === 'DATABASE_POOL_SIZE' ? { DATABASE_URL: 'postgres://db/gift', [name]: value } : { [name]: value };
    expect(() => readConfig(env)).toThrow(name);
  });

  it('OPERATOR_TOKEN: unset is none; shorter than 32 characters or with spaces fails at start-up', () => {
    expect(readOperatorToken({})).toBeUndefined();
    expect(readOperatorToken({ OPERATOR_TOKEN: '' })).toBeUndefined();
    expect(() => readOperatorToken({ OPERATOR_TOKEN: 'x'.repeat(31) })).toThrow(/at least 32/);
    expect(() => readOperatorToken({ OPERATOR_TOKEN: `${'x'.repeat(32)} y` })).toThrow(/OPERATOR_TOKEN/);
  });
});
