import { Button, type RemoteScreenModule } from '@special-gift/shared';
import { SCREEN_ID_PREFIX } from '@special-gift/shared/composition';
import { ScreenRoot } from '@special-gift/shared/host';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import type { PrerenderedScreen } from '../../services/prerender/prerendered-screen';
import { SLOW_NOTICE_MS } from '../../services/remotes/remote-screens';
import { useHostServices } from '../../shell/host-services';
import { useDocumentTitle } from '../../shell/use-document-title';

interface PrerenderedRouteProps {
  screen: PrerenderedScreen;
  titleKey: string;
  /** The route as without prerendering, given the load that failed (its error screen shows at once). */
  renderOnClient: (failedLoad: Promise<RemoteScreenModule>) => ReactNode;
}

/**
 * The first route's screen as the page brought it: the server's HTML stays in place (moved into
 * this route, not re-rendered) until the screen's code and texts have arrived, then its own React
 * root hydrates it, with the shell's services, and what the user did meanwhile is replayed. A
 * load that is slow says so below the screen, with Try again; one that fails (or passes the
 * bound) gives the route's usual error screen.
 */
export function PrerenderedRoute({ screen, titleKey, renderOnClient }: PrerenderedRouteProps) {
  const { t } = useTranslation();
  useDocumentTitle(t(titleKey));
  const { remoteScreens, screenContext, prerendered, onFirstScreenRendered } = useHostServices();
  const slot = useRef<HTMLDivElement>(null);
  const root = useRef<Root | undefined>(undefined);
  const [loading, setLoading] = useState(() => remoteScreens.load(screen.remote));
  const [hydrated, setHydrated] = useState(false);
  const [slow, setSlow] = useState(false);
  const [failedLoad, setFailedLoad] = useState<Promise<RemoteScreenModule>>();

  // Before the first paint of the shell: the HTML the user already sees moves in unchanged. Moving
  // a focused field blurs it: focus and caret go back at once, so no keystroke is lost.
  useLayoutEffect(() => {
    const focused = document.activeElement instanceof HTMLElement && screen.element.contains(document.activeElement) ? document.activeElement : undefined;
    const field = focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement ? focused : undefined;
    const caret = field ? { start: field.selectionStart, end: field.selectionEnd, direction: field.selectionDirection ?? undefined } : undefined;
    slot.current?.append(screen.element);
    screen.frame?.remove();
    if (focused && document.activeElement !== focused) {
      focused.focus({ preventScroll: true });
      // Not every input type has a selection (email does not): setSelectionRange would throw there.
      if (field && caret && caret.start !== null && caret.end !== null) field.setSelectionRange(caret.start, caret.end, caret.direction);
    }
  }, [screen]);

  useEffect(
    () => () => {
      root.current?.unmount();
      screen.element.remove();
      prerendered.release();
    },
    [screen, prerendered],
  );

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
        const replayUserInput = screen.userInput.beforeHydration();
        root.current = hydrateRoot(
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
  return (
    <>
      <div ref={slot} className="sg-prerendered-slot" />
      {slow && !hydrated ? (
        // Fixed over the screen's footer (inert until the code is there): nothing on the page moves.
        <div className="sg-slow-notice" role="status">
          <p className="sg-slow-notice__text">
            <strong>{t('slowLoading.title')}</strong> {t('slowLoading.message')}
          </p>
          <Button variant="secondary" onClick={() => setLoading(remoteScreens.retry(screen.remote))}>
            {t('actions.tryAgain')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
