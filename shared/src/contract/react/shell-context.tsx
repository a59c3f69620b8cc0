import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { ShellApi } from '../shell';
import type { ShellLocation } from '../navigation';

const ShellContext = createContext<ShellApi | null>(null);

export function ShellProvider({ shell, children }: { shell: ShellApi; children: ReactNode }) {
  return <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>;
}

/** The shell services. Throws outside a `ShellProvider`: a remote must be mounted by a shell. */
export function useShell(): ShellApi {
  const shell = useContext(ShellContext);
  if (!shell)
    throw new Error('useShell() needs a <ShellProvider>: mount the screen through the host or the dev shell.');
  return shell;
}

export const useNavigation = () => useShell().navigation;
export const useStorage = () => useShell().storage;
export const useOverlays = () => useShell().overlays;
export const useHttp = () => useShell().http;
export const useShellConfig = () => useShell().config;
export const useShellI18n = () => useShell().i18n;

/** The current location, re-rendering on change. */
export function useShellLocation(): ShellLocation {
  const { navigation } = useShell();
  return useSyncExternalStore(navigation.subscribe, navigation.location, navigation.location);
}
