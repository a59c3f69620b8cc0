import { CONTRACT_VERSION, type RemoteScreenMeta } from '@special-gift/shared';

export { ThankYouScreen as default } from './thank-you-screen';
export const meta: RemoteScreenMeta = { contractVersion: CONTRACT_VERSION, namespace: 'thankyou' };
