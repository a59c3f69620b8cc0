import { CONTRACT_VERSION, type KeyValueStorage, type ShellApi } from '@special-gift/shared';
import { createHttpClient, createOverlayController, type OverlayController } from '@special-gift/shared/host';
import type { RuntimeConfig } from '../config/runtime-config';
import type { ShellI18nService } from '../services/i18n/create-i18n';
import { createNavigation, type AppRouter, type ShellNavigation } from '../services/navigation/create-navigation';

/** The contract every remote receives (`useShell()`), and the host's own handles on its parts. */
export function createShellApi(
  config: RuntimeConfig,
  { router, storage, i18n }: { router: AppRouter; storage: KeyValueStorage; i18n: ShellI18nService },
): {
  shell: ShellApi;
  navigation: ShellNavigation;
  overlays: OverlayController;
} {
  const navigation = createNavigation(router);
  const overlays = createOverlayController();
  // The API sets the XSRF cookie on any answer; `health` is its cheapest.
  const http = createHttpClient({ baseUrl: config.apiBase, xsrfPrimePath: 'health' });
  const { apiBase, cardScanBase, siteBase, defaultLanguage } = config;
  const shell: ShellApi = {
    contractVersion: CONTRACT_VERSION,
    config: { apiBase, cardScanBase, siteBase, defaultLanguage },
    navigation,
    i18n,
    storage,
    overlays,
    http,
  };
  return { shell, navigation, overlays };
}
