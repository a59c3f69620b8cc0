import { createContext, useContext, type ReactNode } from 'react';
import type { ShellApi } from '@special-gift/shared';
import type { OverlayController } from '@special-gift/shared/host';
import type { i18n as I18nInstance } from 'i18next';
import type { PrerenderedScreens } from '../services/prerender/prerendered-screen';
import type { RemoteScreens } from '../services/remotes/remote-screens';
import type { ShellNavigation } from '../services/navigation/create-navigation';

/** Host-internal services that remotes never see (they get the ShellApi instead). */
export interface HostServices {
  readonly remoteScreens: RemoteScreens;
  readonly navigation: ShellNavigation;
  /** Called once the first screen has rendered, to start preloading the others. */
  readonly onFirstScreenRendered: () => void;
  readonly overlays: OverlayController;
  /** The screen the page arrived with, prerendered, for its route to hydrate. */
  readonly prerendered: PrerenderedScreens;
  /** What a screen hydrated in its own React root is given (the main tree provides the same). */
  readonly screenContext: { readonly shell: ShellApi; readonly i18n: I18nInstance };
  /** Runtime-config override of the swipe-back gesture (default: on for iOS only). */
  readonly swipeBackEnabled: boolean | undefined;
}

const HostServicesContext = createContext<HostServices | null>(null);

export function HostServicesProvider({ services, children }: { services: HostServices; children: ReactNode }) {
  return <HostServicesContext.Provider value={services}>{children}</HostServicesContext.Provider>;
}

export function useHostServices(): HostServices {
  const services = useContext(HostServicesContext);
  if (!services) throw new Error('useHostServices() needs a <HostServicesProvider>');
  return services;
}
