import { ShellProvider, type ShellApi } from '@special-gift/shared';
import type { i18n as I18nInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { FirstScreenProvider, type FirstScreen } from '../features/first-screen';
import type { AppRouter } from '../services/navigation/create-navigation';
import { HostServicesProvider, type HostServices } from '../shell/host-services';

/** Providers, outermost first: translations, the shell contract for remotes, host services, the first screen, routes. */
export function App({
  shell,
  i18n,
  router,
  services,
  firstScreen,
}: {
  shell: ShellApi;
  i18n: I18nInstance;
  router: AppRouter;
  services: HostServices;
  firstScreen: FirstScreen;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <ShellProvider shell={shell}>
        <HostServicesProvider services={services}>
          <FirstScreenProvider firstScreen={firstScreen}>
            <RouterProvider router={router} />
          </FirstScreenProvider>
        </HostServicesProvider>
      </ShellProvider>
    </I18nextProvider>
  );
}
