// The first screen, from the page loader's hand-off to release: the order is in README.md.
export { adoptFirstScreen, type FirstScreen, type PrerenderedScreen, type ScreenContext } from './first-screen';
export { FirstScreenProvider, useFirstScreen, useFirstScreenShown } from './first-screen-context';
export { FirstScreenRoute } from './first-screen-route';
