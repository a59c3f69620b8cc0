import type { ShellConfig } from './config';
import type { HttpClient } from './http';
import type { ShellI18n } from './i18n';
import type { Navigation } from './navigation';
import type { Overlays } from './overlays';
import type { KeyValueStorage } from './storage';

/** Everything a remote receives from the shell. Remotes create none of these themselves. */
export interface ShellApi {
  readonly contractVersion: number;
  readonly config: ShellConfig;
  readonly navigation: Navigation;
  readonly i18n: ShellI18n;
  readonly storage: KeyValueStorage;
  readonly overlays: Overlays;
  readonly http: HttpClient;
}
