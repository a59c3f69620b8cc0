import { Webhook } from 'standardwebhooks';
import { RETRY_DELAYS_SECONDS, signWebhook, webhookSecret, webhookUrlProblem } from './webhook-signing';

describe('rollout webhooks: signing', () => {
  const secret = webhookSecret('operator-key', 'production', 'signup', 1);

  it('signs so that the Standard Webhooks reference library verifies it, and nothing altered', () => {
    const body = JSON.stringify({ type: 'rollout.started', remote: 'signup' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, 'msg_1', timestamp, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('signup', 'intro'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    const other = webhookSecret('operator-key', 'production', 'intro', 1);
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });

  it('derives one secret per environment, remote and generation, and a new one when rotated', () => {
    expect(webhookSecret('operator-key', 'production', 'signup', 1)).toBe(secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const others = [
      webhookSecret('operator-key', 'production', 'signup', 2),
      webhookSecret('operator-key', 'staging', 'signup', 1),
      webhookSecret('operator-key', 'production', 'intro', 1),
      webhookSecret('another-key', 'production', 'signup', 1),
    ];
    expect(new Set([secret, ...others]).size).toBe(5);
  });

  it('retries for about 8 hours, then gives up', () => {
    expect(RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0)).toBe(27_760);
  });
});

describe('rollout webhooks: where the API may post', () => {
  it.each([
    ['https://hooks.example.com/rollouts', null],
    ['https://93.184.215.14/hook', null],
    ['http://hooks.example.com/x', 'must be https (ROLLOUT_WEBHOOK_HOSTS allows named http hosts)'],
    ['https://127.0.0.1/x', 'its address is loopback, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    ['https://10.0.0.7/x', 'its address is private, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    [
      'https://169.254.169.254/latest',
      'its address is linkLocal, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)',
    ],
    ['https://[::1]/x', 'its address is loopback, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    ['https://[::ffff:10.0.0.1]/x', 'its address is private, not public (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    ['https://localhost/x', 'its host is not a public name (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    ['https://api/x', 'its host is not a public name (ROLLOUT_WEBHOOK_HOSTS allows named hosts)'],
    ['https://user:pw@hooks.example.com/x', 'must not carry credentials'],
    ['ftp://hooks.example.com/x', 'must be an http or https URL'],
    ['not a url', 'must be an absolute URL'],
  ])('with no allowlist, %s', (url, problem) => {
    expect(webhookUrlProblem(url, null)).toBe(problem);
  });

  it('with an allowlist, only its hosts, http included (a receiver inside the cluster)', () => {
    const allowed = ['receiver', '127.0.0.1:8099'];
    expect(webhookUrlProblem('http://receiver:8080/hook', allowed)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:8099/hook', allowed)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:8100/hook', allowed)).toBe(
      'its host 127.0.0.1:8100 is not in ROLLOUT_WEBHOOK_HOSTS (receiver, 127.0.0.1:8099)',
    );
    expect(webhookUrlProblem('https://hooks.example.com/x', allowed)).toMatch(/not in ROLLOUT_WEBHOOK_HOSTS/);
  });
});
