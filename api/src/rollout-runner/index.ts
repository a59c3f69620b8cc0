// The rollout runner's face to the app (docs/rollouts.md): the routes, the gate runner's routes,
// the loop that main.ts starts, and its settings.
export { gateRoutes, type GateRouteOptions } from './gate-routes';
export { createRolloutRunner, type RolloutRunner, type RolloutRunnerOptions } from './runner';
export { rolloutRoutes, type RolloutRouteOptions } from './routes';
export { DEFAULT_RUNNER_SETTINGS, type RolloutRunnerSettings } from './settings';
export { LeaseLost } from './lease';
export { defaultPlanRoutes } from './plan-routes';
export { WebhookPump, type WebhookPumpOptions } from './webhook-pump';
export { webhookRoutes, type WebhookRouteOptions } from './webhook-routes';
