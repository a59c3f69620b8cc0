import type { RouteObject } from 'react-router-dom';
import { NotFoundScreen } from '../features/not-found/not-found-screen';
import { RemoteRoute } from '../features/remotes/remote-route';
import { ShellLayout } from './shell-layout';

/** The app's routes: each screen is a remote, loaded when first needed (and preloaded after start). */
export const routes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      { index: true, element: <RemoteRoute name="intro" titleKey="titles.intro" /> },
      { path: 'sign-up', element: <RemoteRoute name="signup" titleKey="titles.signup" /> },
      { path: 'thank-you', element: <RemoteRoute name="thankyou" titleKey="titles.thankyou" /> },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];

/** Which remote serves a path, to start loading it before React renders. */
export function remoteForPath(pathname: string) {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return 'intro' as const;
  if (path === '/sign-up') return 'signup' as const;
  if (path === '/thank-you') return 'thankyou' as const;
  return null;
}
