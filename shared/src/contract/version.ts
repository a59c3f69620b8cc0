/**
 * Version of the host <-> remote contract. Bump the major (and the `@special-gift/shared` package
 * major) on any breaking change to the types in this folder; the host refuses to mount a remote
 * built against another major and says so on the error screen instead of failing obscurely.
 */
export const CONTRACT_VERSION = 1;
