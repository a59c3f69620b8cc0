import { CONTRACT_VERSION, type RemoteScreenMeta } from '@special-gift/shared';

export { IntroScreen as default } from './intro-screen';
export const meta: RemoteScreenMeta = { contractVersion: CONTRACT_VERSION, namespace: 'intro' };
