// The telemetry domain's face to the app.
export { telemetryRoutes } from './routes';
export { TelemetryStore } from './telemetry-store';
export { purgeTelemetry } from './telemetry-tables';
export { ROUTE_OWNERS } from './vocabulary';
export { REPORT_PAGE } from './report-page-paths';
export { pageTokenKeys } from './page-token';
export { canaryAnswer, signedViewsSince, type CanaryQuestion } from './canary-answer';
