import { CONTRACT_VERSION, type RemoteScreenMeta } from '@special-gift/shared';

export { SignUpScreen as default } from './sign-up-screen';
export const meta: RemoteScreenMeta = { contractVersion: CONTRACT_VERSION, namespace: 'signup' };
