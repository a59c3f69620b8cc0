// The releases domain's face to the app.
export { releaseRoutes } from './routes';
export { PointerMemo } from './snapshot';
