import { shellPageClass } from '@special-gift/shared/composition';
import { OverlayHost } from '@special-gift/shared/host';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { useFirstScreenShown } from '../features/first-screen';
import { useSwipeBack } from '../services/navigation/use-swipe-back';
import { useHostServices } from '../shell/host-services';
import './shell-layout.css';

/** How long focus waits for a new page's title (a screen still loading): about 2 s of frames. */
const TITLE_FOCUS_MAX_FRAMES = 120;

/** Moves focus to the new page's title after a navigation, so screen readers announce the page. */
function useFocusTitleOnNavigation(locationKey: string, page: React.RefObject<HTMLDivElement | null>) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frames = 0;
    let handle = 0;
    // The screen may still be loading: look for its title for a short while.
    const tryFocus = () => {
      const title = page.current?.querySelector<HTMLElement>('[data-page-title]');
      if (title) title.focus({ preventScroll: true });
      else if (frames++ < TITLE_FOCUS_MAX_FRAMES) handle = requestAnimationFrame(tryFocus);
    };
    handle = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(handle);
  }, [locationKey, page]);
}

/** The app shell: the current page with its directional enter transition, and the overlay layer. */
export function ShellLayout() {
  const location = useLocation();
  const { navigation, overlays, swipeBackEnabled } = useHostServices();
  const { t } = useTranslation();
  const page = useRef<HTMLDivElement>(null);
  // Entries pushed outside the router all share the key "default": the path tells them apart.
  const pageKey = `${location.key}:${location.pathname}`;
  // While the page's prerendered screen is on show where the server put it, this frame is empty.
  const serverScreenShown = useFirstScreenShown(pageKey);
  useFocusTitleOnNavigation(pageKey, page);
  useSwipeBack(page, navigation, swipeBackEnabled);

  return (
    <>
      <div
        ref={page}
        key={pageKey}
        className={shellPageClass(navigation.direction())}
        data-testid="shell-page"
        hidden={serverScreenShown || undefined}
      >
        <Outlet />
      </div>
      <OverlayHost
        controller={overlays}
        labels={{ ok: t('overlay.ok'), cancel: t('overlay.cancel'), close: t('overlay.close') }}
      />
    </>
  );
}
