import { createContext, useContext, type ReactNode } from 'react';
import type { OverlayController } from '@special-gift/shared/host';
import type { RemoteScreens } from '../services/remotes/remote-screens';
import type { ShellNavigation } from '../services/navigation/create-navigation';

/** Host-internal services that remotes never see (they get the ShellApi instead). */
export interface HostServices {
  readonly remoteScreens: RemoteScreens;
  readonly navigation: ShellNavigation;
  /** Called once the first screen has rendered, to start preloading the others. */
  readonly onFirstScreenRendered: () => void;
  readonly overlays: OverlayController;
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
