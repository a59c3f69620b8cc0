import { Button, type RemoteScreenModule } from '@special-gift/shared';
import { SCREEN_ID_PREFIX } from '@special-gift/shared/composition';
import { ScreenRoot } from '@special-gift/shared/host';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { hydrateRoot, type Root } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { SLOW_NOTICE_MS } from '../../services/remotes/remote-screens';
import { afterNextPaint } from '../../services/scheduling/timing';
import { useHostServices } from '../../shell/host-services';
import { useScreenTitle } from '../../shell/use-document-title';
import { useFirstScreen } from './first-screen-context';
import type { PrerenderedScreen } from './first-screen';

interface FirstScreenRouteProps {
  screen: PrerenderedScreen;
  /** The route as without prerendering, given the load that failed (its error screen shows at once). */
  renderOnClient: (failedLoad: Promise<RemoteScreenModule>) => ReactNode;
}

/**
 * Steps 4 to 6 (README.md): the first route's screen as the page brought it. Once the screen's
 * code and texts have arrived, its own React root hydrates the server's HTML with the shell's
 * services, and what the user did meanwhile is replayed. A load that is slow says so over the
 * screen's footer, with Try again; one that fails (or passes the bound) gives the route's usual
 * error screen.
 */
export function FirstScreenRoute({ screen, renderOnClient }: FirstScreenRouteProps) {
  const { t } = useTranslation();
  useScreenTitle(screen.remote);
  const { remoteScreens, onFirstScreenRendered } = useHostServices();
  const firstScreen = useFirstScreen();
  const { screenContext } = firstScreen;
  const root = useRef<Root | undefined>(undefined);
  const [loading, setLoading] = useState(() => remoteScreens.load(screen.remote));
  const [hydrated, setHydrated] = useState(false);
  const [slow, setSlow] = useState(false);
  const [failedLoad, setFailedLoad] = useState<Promise<RemoteScreenModule>>();

  // Leaving the route: the server's frame goes in the same paint as the next screen comes (a
  // layout effect). The screen's own root is unmounted once that paint is on the glass: its DOM
  // went with the frame, so what is left is its components' clean-up, which need not delay the
  // next screen (after a tap, React runs passive effects before the paint). Never inside the
  // commit: another root may not be unmounted inside one.
  useLayoutEffect(() => () => firstScreen.release({ leavingPage: true }), [firstScreen]);
  useEffect(
    () => () => {
      const screenRoot = root.current;
      if (screenRoot) afterNextPaint(() => screenRoot.unmount());
    },
    [],
  );
  // A failed load shows the route's error screen in the shell's frame, in the same paint.
  useLayoutEffect(() => {
    if (failedLoad) firstScreen.release();
  }, [failedLoad, firstScreen]);

  useEffect(() => {
    if (hydrated) return undefined;
    const timer = setTimeout(() => setSlow(true), SLOW_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [hydrated]);

  useEffect(() => {
    let current = true;
    loading.then(
      (module) => {
        if (!current || root.current) return;
        const Screen = module.default;
        // At default priority, in one task, not as a transition: time-sliced, typing between two
        // slices into a part not hydrated yet reaches neither React nor the replay, and the next
        // render of the form empties that field.
        root.current = hydrateRoot(
          screen.element,
          <ScreenRoot
            shell={screenContext.shell}
            i18n={screenContext.i18n}
            onHydrated={() => screen.userInput.replay()}
          >
            <Screen />
          </ScreenRoot>,
          {
            identifierPrefix: SCREEN_ID_PREFIX,
            // The server's HTML did not match the code (e.g. a fragment cached across the remote's
            // deploy): React rendered the screen on the client instead. Say so, to be found.
            onRecoverableError: (error, info) =>
              console.error(
                `[prerender] ${screen.remote}: rendered on the client instead of hydrating`,
                (error as { cause?: unknown }).cause ?? error,
                info.componentStack,
              ),
          },
        );
        setHydrated(true);
        onFirstScreenRendered();
      },
      () => {
        if (current) setFailedLoad(loading);
      },
    );
    return () => {
      current = false;
    };
  }, [loading, screen, screenContext, onFirstScreenRendered]);

  if (failedLoad) return renderOnClient(failedLoad);
  if (!slow || hydrated) return null;
  // Fixed over the screen's footer (inert until the code is there): nothing on the page moves.
  // In the body: the shell's own frame, where this route renders, is hidden meanwhile.
  return createPortal(
    <div className="sg-slow-notice" role="status">
      <p className="sg-slow-notice__text">
        <strong>{t('slowLoading.title')}</strong> {t('slowLoading.message')}
      </p>
      <Button variant="secondary" onClick={() => setLoading(remoteScreens.retry(screen.remote))}>
        {t('actions.tryAgain')}
      </Button>
    </div>,
    document.body,
  );
}
