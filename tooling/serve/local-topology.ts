import { join } from 'node:path';

/** Where each app is served locally: the README's ports. */
export const REPO_ROOT = join(__dirname, '..', '..');

export interface Topology {
  host: number;
  intro: number;
  signup: number;
  thankyou: number;
  api: number;
}

export const LOCAL_PORTS: Topology = { host: 3000, intro: 3001, signup: 3002, thankyou: 3003, api: 3004 };

export const REMOTE_APPS = [
  { name: 'intro', dir: 'remote-intro' },
  { name: 'signup', dir: 'remote-signup' },
  { name: 'thankyou', dir: 'remote-thankyou' },
] as const;

/** The host's runtime config for a topology on loopback. */
export function localRuntimeConfig(ports: Topology, hostname = 'localhost') {
  return {
    apiBase: '/api/v1',
    cardScanBase: 'https://www.special-gift.example/scan',
    siteBase: 'https://www.special-gift.example',
    defaultLanguage: 'en',
    remotes: {
      intro: `http://${hostname}:${ports.intro}/remoteEntry.js`,
      signup: `http://${hostname}:${ports.signup}/remoteEntry.js`,
      thankyou: `http://${hostname}:${ports.thankyou}/remoteEntry.js`,
    },
  };
}
