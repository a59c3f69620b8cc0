import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReleaseApi } from './api-client';
import { Refusal } from './integrity';

/** A release API stand-in that answers each request with the next status of `statuses` (the last one repeats). */
async function apiAnswering(statuses: number[]): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const status = statuses[Math.min(requests.length - 1, statuses.length - 1)] ?? 500;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      status < 400
        ? JSON.stringify({
            pointer: null,
            revision: 0,
            builds: [],
            history: [],
            purged: ['aaaaaaaaaaaa'],
            rollouts: [],
          })
        : JSON.stringify({ error: { code: 'bad_gateway', message: 'the proxy failed' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

describe('ReleaseApi retries', () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((server) => server.close()));
  const api = async (statuses: number[]) => {
    const stand = await apiAnswering(statuses);
    servers.push(stand.server);
    return { ...stand, client: new ReleaseApi(stand.url, 'token', [1, 1]) };
  };

  it('repeats a read after a 502 and a 503 from the proxy, and gets the answer', async () => {
    const { client, requests } = await api([502, 503, 200]);
    await expect(client.remote('signup')).resolves.toMatchObject({ revision: 0 });
    expect(requests).toHaveLength(3);
  });

  it('gives up after three attempts, with the last refusal', async () => {
    const { client, requests } = await api([504]);
    await expect(client.remote('signup')).rejects.toThrow(new Refusal('the proxy failed (504 bad_gateway)'));
    expect(requests).toHaveLength(3);
  });

  it('repeats registering a build and purging (the same request changes nothing twice)', async () => {
    const register = await api([502, 201]);
    const build = { remote: 'signup', buildId: 'aaaaaaaaaaaa', contractMajor: 1, files: 1, bytes: 1 };
    await expect(register.client.registerBuild({ ...build, integrity: {} })).resolves.toEqual({ created: true });
    expect(register.requests).toHaveLength(2);
    const purge = await api([503, 200]);
    await expect(purge.client.purge('signup', ['aaaaaaaaaaaa'])).resolves.toEqual(['aaaaaaaaaaaa']);
    expect(purge.requests).toHaveLength(2);
  });

  it('never repeats a pointer action: a repeat of a compare-and-swap would be a conflict', async () => {
    const { client, requests } = await api([502, 200]);
    await expect(client.act('signup', { action: 'rollback', expectedRevision: 3, reason: 'x' })).rejects.toThrow(
      Refusal,
    );
    expect(requests).toHaveLength(1);
  });

  it('repeats reading rollouts; never repeats starting or steering one (a start twice is refused, a control is a compare-and-swap)', async () => {
    const read = await api([502, 200]);
    await expect(read.client.rollouts('signup', { active: true, limit: 1 })).resolves.toEqual([]);
    expect(read.requests).toEqual([
      'GET /v1/rollouts?remote=signup&limit=1&active=true',
      'GET /v1/rollouts?remote=signup&limit=1&active=true',
    ]);
    const start = await api([502, 201]);
    await expect(start.client.startRollout({ remote: 'signup', buildId: 'aaaaaaaaaaaa', reason: 'x' })).rejects.toThrow(
      Refusal,
    );
    expect(start.requests).toEqual(['POST /v1/rollouts']);
    const control = await api([503, 200]);
    const id = '0123456789abcdef01234567';
    await expect(control.client.rolloutControl(id, 'abort', { expectedVersion: 4, reason: 'x' })).rejects.toThrow(
      Refusal,
    );
    expect(control.requests).toEqual([`POST /v1/rollouts/${id}/abort`]);
  });

  it('does not repeat a refusal (4xx)', async () => {
    const { client, requests } = await api([409, 200]);
    await expect(client.remote('signup')).rejects.toThrow(Refusal);
    expect(requests).toHaveLength(1);
  });
});
