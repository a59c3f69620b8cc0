// Generated from tooling/remotes/remotes.json by `npm run generate`: do not edit.

export const REMOTE_LIST = [
  { name: 'intro', dir: 'remote-intro', localPort: 3001, route: '/' },
  { name: 'signup', dir: 'remote-signup', localPort: 3002, route: '/sign-up' },
  { name: 'thankyou', dir: 'remote-thankyou', localPort: 3003, route: '/thank-you' },
] as const;
