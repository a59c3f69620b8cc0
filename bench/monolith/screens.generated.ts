// Generated from tooling/remotes/remotes.json by `npm run generate`: do not edit.

export const SCREENS: Record<string, () => Promise<unknown>> = {
  'intro/Screen': () => import(/* webpackChunkName: "remotes/intro/remoteEntry" */ '../../remote-intro/src/exposed-screen'),
  'signup/Screen': () => import(/* webpackChunkName: "remotes/signup/remoteEntry" */ '../../remote-signup/src/exposed-screen'),
  'thankyou/Screen': () => import(/* webpackChunkName: "remotes/thankyou/remoteEntry" */ '../../remote-thankyou/src/exposed-screen'),
};
