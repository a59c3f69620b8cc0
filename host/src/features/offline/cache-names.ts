// The worker's cache names, with no imports: the e2e tests read the caches by the same names.

/** Cache names. Each name means the same bytes in every version of the worker (update policy). */
export const CACHE = {
  pages: 'sg-pages',
  /** The host's own files: config.json, texts, hashed scripts and stylesheets. */
  shell: 'sg-shell',
  /** Remotes running their image's own build (no release pointer): by URL. */
  image: 'sg-image',
  /** The set's description (`META_KEY`). */
  meta: 'sg-meta',
} as const;
/** One cache per published build, named by its folder: filled whole before any page names it. */
export const BUILD_CACHE_PREFIX = 'sg-build ';
/** The set's description, in `CACHE.meta`. */
export const META_KEY = '/__sg/offline-set';
