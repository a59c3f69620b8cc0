import type { KeyValueStorage } from '@special-gift/shared';
import { pageIntegrity } from '../config/page-integrity';
import { remoteTextsBase, type RemoteName, type RuntimeConfig } from '../config/runtime-config';
import { createI18n, type ShellI18nService } from '../services/i18n/create-i18n';
import { createRemoteScreens, type FederationRuntime, type RemoteScreens } from '../services/remotes/remote-screens';
import { yieldToBrowser } from '../services/scheduling/timing';

export interface StartedServices {
  readonly storage: KeyValueStorage;
  readonly i18n: ShellI18nService;
  readonly remoteScreens: RemoteScreens;
}

/**
 * Storage, translations and the remote registry. The first route's remote starts loading as soon
 * as the config is known, in parallel with storage and translations, and its texts come with the
 * host's rather than a round trip later.
 */
export async function startServices(
  config: RuntimeConfig,
  runtime: FederationRuntime,
  firstRemote: RemoteName | null,
): Promise<StartedServices> {
  // Storage (localforage does much of its set-up as it is evaluated) in a task of its own: the
  // start-up is several short tasks, not one long one. Same bundle, no request.
  // What this page checks its remotes' files against (docs/security.md).
  const integrityOf = pageIntegrity(config.remotes, document.documentElement, window.location.href, {
    requireIntegrity: config.requireIntegrity === true,
  });
  const storageReady = yieldToBrowser()
    .then(() => import(/* webpackMode: "eager" */ '../services/storage/create-storage'))
    .then(({ createStorage }) => createStorage());
  const i18nReady = storageReady.then((storage) =>
    createI18n({
      storage,
      defaultLanguage: config.defaultLanguage,
      texts: { integrityOf },
      namespaces: firstRemote ? { [firstRemote]: remoteTextsBase(config.remotes[firstRemote]) } : {},
    }),
  );
  const remoteScreens = createRemoteScreens({
    runtime,
    entries: config.remotes,
    integrityOf,
    loadTexts: async (namespace, entryUrl, { fresh }) =>
      (await i18nReady).loadNamespace(namespace, remoteTextsBase(entryUrl), { fresh }),
  });
  // Failures surface on the route's own error screen; here they only must not be unhandled.
  if (firstRemote) remoteScreens.load(firstRemote).catch(() => undefined);

  const [storage, i18n] = await Promise.all([storageReady, i18nReady]);
  return { storage, i18n, remoteScreens };
}
