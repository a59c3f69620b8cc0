// Remotes read their texts through this export, never from react-i18next directly. The contract
// package is the one shared singleton that carries it, so the remotes use the host's react-i18next
// (and its single i18next instance) while react-i18next itself is not a federated share: the host
// bundles it like any library and webpack keeps only what is used.
export { useTranslation } from 'react-i18next';
