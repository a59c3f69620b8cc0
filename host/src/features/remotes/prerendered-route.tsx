import type { RemoteScreenModule } from '@special-gift/shared';
import { SCREEN_ID_PREFIX } from '@special-gift/shared/composition';
import { ScreenRoot } from '@special-gift/shared/host';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import type { PrerenderedScreen } from '../../services/prerender/prerendered-screen';
import { captureUserInput } from '../../services/prerender/replay-user-input';
import { useHostServices } from '../../shell/host-services';
import { useDocumentTitle } from '../../shell/use-document-title';

interface PrerenderedRouteProps {
  screen: PrerenderedScreen;
  titleKey: string;
  /** The route as without prerendering, given the load that failed (its error screen shows at once). */
  renderOnClient: (failedLoad: Promise<RemoteScreenModule>) => React.ReactNode;
}

/**
 * The first route's screen as the page brought it: the server's HTML stays in place (moved into
 * this route, not re-rendered) until the screen's code and texts have arrived, then its own React
 * root hydrates it, with the shell's services. A load that fails gives the route's usual error
 * screen.
 */
export function PrerenderedRoute({ screen, titleKey, renderOnClient }: PrerenderedRouteProps) {
  const { t } = useTranslation();
  useDocumentTitle(t(titleKey));
  const { remoteScreens, screenContext, prerendered, onFirstScreenRendered } = useHostServices();
  const slot = useRef<HTMLDivElement>(null);
  const [failedLoad, setFailedLoad] = useState<Promise<RemoteScreenModule>>();

  // Before the first paint of the shell: the HTML the user already sees moves in unchanged.
  useLayoutEffect(() => {
    slot.current?.append(screen.element);
  }, [screen]);

  useEffect(() => {
    let live = true;
    let root: Root | undefined;
    const loading = remoteScreens.load(screen.remote);
    loading.then(
      (module) => {
        if (!live) return;
        const Screen = module.default;
        const replayUserInput = captureUserInput(screen.element);
        root = hydrateRoot(
          screen.element,
          <ScreenRoot shell={screenContext.shell} i18n={screenContext.i18n} onHydrated={replayUserInput}>
            <Screen />
          </ScreenRoot>,
          {
            identifierPrefix: SCREEN_ID_PREFIX,
            // The server's HTML did not match the code (e.g. a fragment cached across the remote's
            // deploy): React rendered the screen on the client instead. Say so, to be found.
            onRecoverableError: (error, info) => console.error(`[prerender] ${screen.remote}: rendered on the client instead of hydrating`, (error as { cause?: unknown }).cause ?? error, info.componentStack),
          },
        );
        onFirstScreenRendered();
      },
      () => {
        if (live) setFailedLoad(loading);
      },
    );
    return () => {
      live = false;
      root?.unmount();
      screen.element.remove();
      prerendered.release();
    };
  }, [screen, remoteScreens, screenContext, prerendered, onFirstScreenRendered]);

  if (failedLoad) return renderOnClient(failedLoad);
  return <div ref={slot} className="sg-prerendered-slot" />;
}
