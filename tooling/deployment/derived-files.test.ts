import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUPPORTED_LANGUAGES } from '@special-gift/shared';
import { DERIVED_FILES } from './derived-files';
import { readRemoteList, type RemoteEntry } from '../remotes/read-remote-list';

const root = join(__dirname, '..', '..');

describe('the files derived from tooling/remotes/remotes.json', () => {
  it.each(Object.keys(DERIVED_FILES))('%s is what the list generates (run `npm run generate`)', (path) => {
    expect(readFileSync(join(root, path), 'utf8')).toBe(DERIVED_FILES[path]?.(readRemoteList()));
  });

  it.each(Object.keys(DERIVED_FILES))('%s says what is generated, and how', (path) => {
    expect(readFileSync(join(root, path), 'utf8')).toMatch(/generated .*`npm run generate`.*do not edit/i);
  });

  describe('with a fourth remote added to the list', () => {
    const rewards: RemoteEntry = { name: 'rewards', dir: 'remote-rewards', localPort: 3005, route: '/rewards' };
    const withFourth = (): RemoteEntry[] => {
      const file = join(mkdtempSync(join(tmpdir(), 'remotes-')), 'remotes.json');
      writeFileSync(file, JSON.stringify([...readRemoteList(), rewards]));
      return readRemoteList(file);
    };
    // What each derived file must say of each remote, the new one included: a line, or a pattern.
    const expected: Record<string, (remote: RemoteEntry) => string | RegExp> = {
      'host/src/config/remotes.generated.ts': (remote) => `{ name: '${remote.name}', route: '${remote.route}' },`,
      'tooling/remotes/remotes.generated.ts': (remote) =>
        `{ name: '${remote.name}', dir: '${remote.dir}', localPort: ${remote.localPort}, route: '${remote.route}' },`,
      'bench/monolith/screens.generated.ts': (remote) =>
        `'${remote.name}/Screen': () => import(/* webpackChunkName: "remotes/${remote.name}/remoteEntry" */ '../../${remote.dir}/src/exposed-screen'),`,
      'deploy/nginx/snippets/composition.conf': (remote) => `"~^${remote.route}(\\?|$)" ${remote.name};`,
      'deploy/nginx/host.conf.template': (remote) => `location ^~ /_screen/${remote.name}/ {`,
      'deploy/nginx/entrypoint/15-runtime-config.envsh': (remote) =>
        new RegExp(`^SG_REMOTES=".*\\b${remote.name}\\b.*"$`, 'm'),
      'docker-compose.yml': (remote) => `image: special-gift/${remote.dir}`,
      'deploy/static-app.Dockerfile': (remote) => `COPY ${remote.dir}/package.json ${remote.dir}/`,
      'deploy/api.Dockerfile': (remote) => `COPY ${remote.dir}/package.json ${remote.dir}/`,
      'deploy/gate-runner.Dockerfile': (remote) => `COPY ${remote.dir}/package.json ${remote.dir}/`,
    };

    it('every derived file has a check here', () => {
      expect(Object.keys(expected).sort()).toEqual(Object.keys(DERIVED_FILES).sort());
    });

    it.each(Object.keys(DERIVED_FILES))('%s names all four', (path) => {
      const remotes = withFourth();
      const text = DERIVED_FILES[path]?.(remotes) ?? '';
      for (const remote of remotes) {
        const expectation = expected[path]?.(remote);
        if (expectation instanceof RegExp) expect(text).toMatch(expectation);
        else expect(text.split('\n').map((line) => line.trim())).toContain(expectation);
      }
    });
  });

  // What a remote's own folder says of itself, checked rather than generated: its team owns it.
  describe.each(readRemoteList())("$dir's folder agrees with its entry", ({ name, dir }) => {
    it("its federation name is the entry's name", async () => {
      const federation = (
        (await import(join(root, dir, 'module-federation.config.ts'))) as { default: { name?: string } }
      ).default;
      expect(federation.name).toBe(name);
    });

    it('its screen says its texts are in the namespace of that name', () => {
      expect(readFileSync(join(root, dir, 'src', 'exposed-screen.ts'), 'utf8')).toMatch(
        new RegExp(`namespace: '${name}'`),
      );
    });

    it.each([...SUPPORTED_LANGUAGES])('its %s texts name the screen (documentTitle)', (language) => {
      const texts = JSON.parse(
        readFileSync(join(root, dir, 'public', 'assets', 'i18n', `${language}.json`), 'utf8'),
      ) as { documentTitle?: unknown };
      expect(typeof texts.documentTitle === 'string' && texts.documentTitle.trim() !== '').toBe(true);
    });
  });

  describe('the list itself', () => {
    const write = (list: unknown) => {
      const file = join(mkdtempSync(join(tmpdir(), 'remotes-')), 'remotes.json');
      writeFileSync(file, JSON.stringify(list));
      return file;
    };
    const intro = { name: 'intro', dir: 'remote-intro', localPort: 3001, route: '/' };

    it('refuses two remotes with the same route, and says which field', () => {
      expect(() =>
        readRemoteList(write([intro, { ...intro, name: 'other', dir: 'remote-other', localPort: 3009 }])),
      ).toThrow(/another remote has the same "route"/);
    });

    it('refuses a name that cannot be a federation name or a namespace', () => {
      expect(() => readRemoteList(write([{ ...intro, name: 'Sign-Up' }]))).toThrow(
        /"name" is lower-case letters and digits/,
      );
    });
  });
});
