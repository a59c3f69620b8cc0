import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { FirstScreen } from './first-screen';

const FirstScreenContext = createContext<FirstScreen | null>(null);

export function FirstScreenProvider({ firstScreen, children }: { firstScreen: FirstScreen; children: ReactNode }) {
  return <FirstScreenContext.Provider value={firstScreen}>{children}</FirstScreenContext.Provider>;
}

export function useFirstScreen(): FirstScreen {
  const firstScreen = useContext(FirstScreenContext);
  if (!firstScreen) throw new Error('useFirstScreen() needs a <FirstScreenProvider>');
  return firstScreen;
}

/**
 * Step 3: whether the server's screen is on show on the page `pageKey`, for the shell to hide its
 * own page frame meanwhile: only on the page it came with (the first the shell renders). Leaving
 * that page releases the screen without telling this hook (`release({ leavingPage: true })`): the
 * next page's frame is shown from its first render.
 */
export function useFirstScreenShown(pageKey: string): boolean {
  const firstScreen = useFirstScreen();
  const [firstPage] = useState(pageKey);
  const shown = useSyncExternalStore(firstScreen.subscribe, firstScreen.isShown);
  return shown && pageKey === firstPage;
}
