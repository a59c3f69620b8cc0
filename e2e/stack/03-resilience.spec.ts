import { expect, test } from '@playwright/test';
import { API_URL, containers, inspect, podman, signUp, signUpLoad, storedCount, waitUntil } from './stack';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe('the API replicas and PostgreSQL, failing under load', () => {
  test('one API replica killed under sign-up load: no request fails, no acknowledged sign-up is lost, and it restarts by itself', async () => {
    const [victim] = await containers('api');
    if (!victim) throw new Error('no API replica');
    const restartsBefore = Number(await inspect(victim, '{{.RestartCount}}'));
    let stopped = false;
    // Six clients: never more requests at once than the host's limit lets through (its rate plus a
    // burst of 5), so a 429 would be the limit misbehaving, not load.
    const load = signUpLoad(6, () => stopped);
    await sleep(3_000);
    // A crash, not a stop: SIGKILL to the server process itself (PID 1 in the container), from
    // outside the engine. (`podman kill` counts as stopped by the user, and no policy restarts it.)
    process.kill(Number(await inspect(victim, '{{.State.Pid}}')), 'SIGKILL');
    const killedAt = Date.now();
    // The restart policy (unless-stopped) brings it back; the load runs on through it.
    await waitUntil(
      `${victim} to be restarted`,
      async () =>
        Number(await inspect(victim, '{{.RestartCount}}')) > restartsBefore &&
        (await inspect(victim, '{{.State.Status}}')) === 'running',
      60_000,
    );
    const restartedMs = Date.now() - killedAt;
    await sleep(5_000);
    stopped = true;
    const { acknowledged, failures } = await load;

    const stored = await storedCount(acknowledged);
    console.log(
      `replica kill: ${acknowledged.length} sign-ups acknowledged, ${stored} stored, ${acknowledged.length - stored} lost; failed requests ${JSON.stringify(failures)}; ${victim} running again after ${restartedMs} ms`,
    );
    expect(acknowledged.length).toBeGreaterThan(50);
    expect(stored).toBe(acknowledged.length);
    // Not one request failed: the host's nginx sent each that hit the dead replica to the other one.
    expect(failures).toEqual({});
  });

  test('PostgreSQL stopped: the API answers 503, and recovers by itself once it is back', async () => {
    const [postgres] = await containers('postgres');
    if (!postgres) throw new Error('no postgres container');
    expect((await signUp()).status).toBe(201);

    const stoppedAt = Date.now();
    await podman('stop', postgres);
    const ready = async () => (await fetch(`${API_URL}/v1/ready`)).status;
    // Every replica's answer, through the host: a few requests reach both.
    const readyAnswers = async () => Promise.all(Array.from({ length: 6 }, ready));
    const unavailableMs = await waitUntil(
      'readiness to fail',
      async () => (await readyAnswers()).every((status) => status === 503),
      30_000,
      250,
    );
    const whileDown = await Promise.all(Array.from({ length: 6 }, signUp));
    expect(whileDown.map((answer) => answer.status)).toEqual(Array(6).fill(503));

    await podman('start', postgres);
    const startedAt = Date.now();
    await waitUntil(
      'readiness on every replica',
      async () => (await readyAnswers()).every((status) => status === 200),
      60_000,
      250,
    );
    const recoveredMs = Date.now() - startedAt;
    const after = await Promise.all(Array.from({ length: 6 }, signUp));
    expect(after.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    console.log(
      `database restart: readiness 503 within ${unavailableMs} ms of the stop, sign-ups 503 while down (${((startedAt - stoppedAt) / 1000).toFixed(1)} s), ready again ${recoveredMs} ms after the start`,
    );
  });
});
