import type { RemoteScreenMeta } from '@special-gift/shared';
// From the non-shared subpath: the version is baked into this remote's bundle at build time. (The
// package root is a federation singleton, so at runtime it would report the host's version.)
import { CONTRACT_VERSION } from '@special-gift/shared/version';

export { SignUpScreen as default } from './sign-up-screen';
export const meta: RemoteScreenMeta = {
  contractVersion: CONTRACT_VERSION,
  namespace: 'signup',
  // Built with the shell's kept sign-up notice: takes its `review` (use-sign-up-form.ts).
  handles: ['kept-sign-up-review'],
};
