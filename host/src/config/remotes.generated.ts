// Generated from tooling/remotes/remotes.json by `npm run generate`: do not edit.

/** Each remote the host routes to: its name (federation name and texts namespace) and its route. */
export const REMOTES = [
  { name: 'intro', route: '/' },
  { name: 'signup', route: '/sign-up' },
  { name: 'thankyou', route: '/thank-you' },
] as const;
