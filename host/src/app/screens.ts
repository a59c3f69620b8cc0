import type { RemoteName } from '../config/runtime-config';

/** Every screen: its path, the remote that renders it, and its title's key in `common`. */
export const SCREENS: ReadonlyArray<{ path: string; remote: RemoteName; titleKey: string }> = [
  { path: '/', remote: 'intro', titleKey: 'titles.intro' },
  { path: '/sign-up', remote: 'signup', titleKey: 'titles.signup' },
  { path: '/thank-you', remote: 'thankyou', titleKey: 'titles.thankyou' },
];

/** Which remote serves a path, to start loading it before React renders. */
export function remoteForPath(pathname: string): RemoteName | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  return SCREENS.find((screen) => screen.path === path)?.remote ?? null;
}
