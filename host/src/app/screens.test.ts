import { REMOTES } from '../../../tooling/remotes';
import { REMOTE_NAMES } from '../config/runtime-config';
import { remoteForPath } from './screens';

// The host's runtime list of remotes and routes is its own (it ships without the tooling); this
// keeps it in step with the one list the tooling, the browser suite and the benchmark read.
describe('the host agrees with tooling/remotes.json', () => {
  it('knows the same remotes, in the same order', () => {
    expect(REMOTE_NAMES).toEqual(REMOTES.map((remote) => remote.name));
  });

  it.each(REMOTES.map((remote) => [remote.route, remote.name]))('renders %s with the %s remote', (route, name) => {
    expect(remoteForPath(route)).toBe(name);
    expect(remoteForPath(`${route}/`.replace('//', '/'))).toBe(name);
  });

  it('has no route for a path no remote renders', () => {
    expect(remoteForPath('/no-such-screen')).toBeNull();
  });
});
