// The team console's face to the app: a page over the other domains' endpoints (docs/console.md).
export { CONSOLE_PAGE, consoleRoutes } from './routes';
