// The releases domain's face to the app.
export { releaseRoutes } from './routes';
export { PointerMemo } from './snapshot';
export { DirectoryStateStore, openStateStore, S3StateStore, type StateStore } from './state-store';
export { StatePublisher } from './state-publisher';
