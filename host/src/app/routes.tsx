import type { RouteObject } from 'react-router-dom';
import { FirstScreenRoute, useFirstScreen } from '../features/first-screen';
import { NotFoundScreen } from '../features/not-found/not-found-screen';
import { RemoteRoute } from '../features/remotes/remote-route';
import type { RemoteName } from '../config/runtime-config';
import { SCREENS } from './screens';
import { ShellLayout } from './shell-layout';

/**
 * A screen's route: the page's prerendered screen when it came with this one (hydrated, see
 * features/first-screen), else rendered in the browser; a first screen whose code fails gives the
 * browser route its failed load, so its error screen shows at once.
 */
function ScreenRoute({ remote }: { remote: RemoteName }) {
  const screen = useFirstScreen().claim(remote);
  if (screen)
    return (
      <FirstScreenRoute
        key={remote}
        screen={screen}
        renderOnClient={(failedLoad) => <RemoteRoute name={remote} initialLoading={failedLoad} />}
      />
    );
  // Keyed by remote: two routes' elements share this component type and position, so without the
  // key a route change could keep the previous remote's load.
  return <RemoteRoute key={remote} name={remote} />;
}

/** The app's routes: each screen is a remote, loaded when first needed (and preloaded after start). */
export const routes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      ...SCREENS.map(({ path, remote }) => ({ path, element: <ScreenRoute remote={remote} /> })),
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
