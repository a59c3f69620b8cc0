import { REMOTES } from '../../../tooling/remotes';
import { REMOTE_NAMES } from '../config/runtime-config';
import { remoteForPath } from './screens';

// The host's list is generated from tooling/remotes/remotes.json; this checks the routes it makes of it.
describe('the host agrees with tooling/remotes/remotes.json', () => {
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
