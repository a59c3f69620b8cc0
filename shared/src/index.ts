// The public contract of @special-gift/shared, the one federated share: what remotes may use.
// The host's implementations are in '@special-gift/shared/host', test helpers in '/testing'.
export * from './contract/version';
export * from './contract/config';
export * from './contract/i18n';
export * from './contract/navigation';
export * from './contract/storage';
export * from './contract/http';
export * from './contract/overlays';
export * from './contract/shell';
export * from './contract/remote-module';
export * from './contract/sign-up';
export * from './react/shell-context';
export * from './react/use-translation';
export * from './ui';
// The sign-up rules' types only: the rules themselves are pure functions imported from
// '@special-gift/shared/validation', which is not a federated share, so they are bundled (and
// tree-shaken) where they are used instead of riding in every page's shared contract.
export type { SignUp, SignUpErrorCode, SignUpErrors, SignUpField, SignUpInput, SignUpValidationResult } from './validation';
