import { expect, test } from '@playwright/test';
import { signUpInBrowser } from './journey';
import { HOST_URL, apiRequests, containers, psql, signUp } from './stack';

test.describe('the whole journey at the host container', () => {
  test("the host composes each route's page from the remote containers' prerendered screens", async ({ request }) => {
    for (const [path, remote] of [
      ['/', 'intro'],
      ['/sign-up', 'signup'],
      ['/thank-you', 'thankyou'],
    ] as const) {
      const html = await (await request.get(`${HOST_URL}${path}`, { headers: { 'Accept-Language': 'en' } })).text();
      expect(html, path).toContain(`data-sg-screen="${remote}" data-sg-lang="en"`);
      expect(html, path).not.toMatch(/<!--#/);
    }
  });

  test('a person signs up in the browser: the page hydrates, the sign-up is stored in the PostgreSQL container', async ({
    page,
  }) => {
    const id = await signUpInBrowser(page);

    expect(await psql(`SELECT first_name || ' ' || last_name FROM sign_ups WHERE id = '${id}'`)).toBe(
      'Maren Container',
    );
  });

  test('sign-ups through the host are served by both API replicas', async () => {
    const since = new Date().toISOString();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signUp()).status);
    expect(
      statuses.every((status) => status === 201),
      statuses.join(' '),
    ).toBe(true);
    const replicas = await containers('api');
    const served = await Promise.all(
      replicas.map(
        async (name) => (await apiRequests(name, since)).filter((r) => r.method === 'POST' && r.status === 201).length,
      ),
    );
    console.log(`20 sign-ups through the host: ${replicas.map((name, i) => `${name} ${served[i]}`).join(', ')}`);
    for (const [i, count] of served.entries()) expect(count, replicas[i]).toBeGreaterThan(0);
  });
});
