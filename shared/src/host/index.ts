// The host's implementations of the contract (`@special-gift/shared/host`): only a shell (the host,
// or a remote's dev shell) creates the HTTP client and the overlay layer; remotes receive them
// through the contract. Not a federated share, so it is bundled where it is used, and lint keeps
// remotes from importing it.
export { createHttpClient, DEFAULT_HTTP_TIMEOUT_MS, type HttpClientOptions } from './http/create-http-client';
export { createOverlayController } from './overlays/overlay-controller';
export { OverlayHost, type OverlayHostProps } from './overlays/overlay-host';
export type { OverlayController, OverlayEntry, OverlayLabels } from './overlays/overlay-types';
export { ScreenRoot } from './screen-root';
export { RENDERING_I18N_OPTIONS } from './rendering-i18n-options';
