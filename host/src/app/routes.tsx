import type { RouteObject } from 'react-router-dom';
import { NotFoundScreen } from '../features/not-found/not-found-screen';
import { RemoteRoute } from '../features/remotes/remote-route';
import { SCREENS } from './screens';
import { ShellLayout } from './shell-layout';

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
