// The sign-ups domain's face to the app.
export { signUpRoutes } from './routes';
export { warmUp } from './warm-up';
