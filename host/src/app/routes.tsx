import type { RouteObject } from 'react-router-dom';
import type { RemoteName } from '../config/runtime-config';
import { NotFoundScreen } from '../features/not-found/not-found-screen';
import { RemoteRoute } from '../features/remotes/remote-route';
import { ShellLayout } from './shell-layout';

/** Every screen: its path, the remote that renders it, and its title's key in `common`. */
const SCREENS: ReadonlyArray<{ path: string; remote: RemoteName; titleKey: string }> = [
  { path: '/', remote: 'intro', titleKey: 'titles.intro' },
  { path: '/sign-up', remote: 'signup', titleKey: 'titles.signup' },
  { path: '/thank-you', remote: 'thankyou', titleKey: 'titles.thankyou' },
];

/** The app's routes: each screen is a remote, loaded when first needed (and preloaded after start). */
export const routes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      ...SCREENS.map(({ path, remote, titleKey }) => ({ path, element: <RemoteRoute name={remote} titleKey={titleKey} /> })),
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];

/** Which remote serves a path, to start loading it before React renders. */
export function remoteForPath(pathname: string): RemoteName | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return SCREENS.find((screen) => screen.path === path)?.remote ?? null;
}
