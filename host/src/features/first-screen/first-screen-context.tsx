import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
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

/** Step 3: whether the server's screen is on show, for the shell to hide its own page frame meanwhile. */
export function useFirstScreenShown(): boolean {
  const firstScreen = useFirstScreen();
  return useSyncExternalStore(firstScreen.subscribe, firstScreen.isShown);
}
