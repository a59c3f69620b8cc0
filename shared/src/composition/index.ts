// What the browser reads of a composed page (`@special-gift/shared/composition`): the language rule
// and its cookie, the attributes and `useId` prefix of a prerendered screen and the page frame's
// class. Read by the host's start-up, the remotes' prerender step and the servers that compose the
// page; their own side (the page template, SSI variables, the fragments' files, bound and cache) is
// tooling/composition/composition.ts. Not a federated share.
import type { NavigationDirection } from '../contract/navigation';

export { acceptedLanguages, chooseLanguage, textDirection } from './choose-language';

/** The cookie the shell mirrors the user's language choice into, so the composer can read it. */
export const LANGUAGE_COOKIE = 'sg_lang';
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The element that carries a prerendered screen, with its remote, language and contract major. */
export const SCREEN_ATTRIBUTE = 'data-sg-screen';
export const SCREEN_LANGUAGE_ATTRIBUTE = 'data-sg-lang';

/**
 * The `identifierPrefix` of the React root a screen is rendered in, on the server and when it
 * hydrates: `useId` values then match, and differ from the host's own root.
 */
export const SCREEN_ID_PREFIX = 'sg-screen-';

/**
 * The class of the shell's page frame, with the way the page came in (its enter transition): the
 * host's ShellLayout renders it, and the page template (tooling/composition/composition.ts) puts a
 * prerendered screen in the frame of a fresh load, so both are the same element.
 */
export const shellPageClass = (direction: NavigationDirection) => `sg-shell-page sg-shell-page--${direction}`;
export const SHELL_PAGE_CLASS = shellPageClass('root');

/** The meta tag that names the host's field-telemetry collector, written by the host's build. */
export const COLLECTOR_META_NAME = 'sg-collector';

/**
 * Where a composed page asks its host for its page token (docs/telemetry.md), with its builds in
 * `Sg-Builds`: a token in the body (200), or 204 without one. The collector sends it with the
 * page's batch. Not in the page itself, so a page is the same for every visitor of its bucket.
 */
export const PAGE_TOKEN_PATH = '/_sg_page_token';

export { buildEntryUrl, PAGE_BUILDS_ATTRIBUTE, publishedBuildFolder } from './page-builds';
// The page's builds are read with the release formats' one parser (its owner: ../builds).
export { BUILD_ID_PATTERN, parsePageBuilds } from '../builds';
export {
  formatPageIntegrity,
  isPageLoaded,
  PAGE_INTEGRITY_ATTRIBUTE,
  parsePageIntegrity,
  REFUSE_INTEGRITY,
  SRI_PATTERN,
} from './page-integrity';
