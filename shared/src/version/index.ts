/**
 * Version of the host <-> remote contract (`@special-gift/shared/version`, also re-exported by the
 * contract). Bump the major (and the `@special-gift/shared` package major) on any breaking change to
 * the contract in src/contract/; the host refuses to mount a remote built against another major and
 * says so on the error screen instead of failing obscurely. Its own subpath, not a federated share,
 * so a remote bakes the version it was built against into its bundle.
 */
export const CONTRACT_VERSION = 1;
