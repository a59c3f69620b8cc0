// The releases domain's face to the app.
export { releaseRoutes } from './routes';
export { PointerMemo } from './snapshot';
export { DirectoryStateStore, openStateStore, S3StateStore, type StateStore } from './state-store';
export { StatePublisher } from './state-publisher';
// For the rollout runner (rollout-runner/): a step is a pointer move in the runner's own transaction.
export { applyActionTx, describePointer, RevisionTaken, type ActionOutcome, type ActionRefusal } from './action-store';
export { findServableBuild, lockServableBuild } from './build-registry';
export { readLock } from './lock-store';
export { readPointer, type HistoryEntry, type Pointer } from './pointer-store';
export { signPreview } from './preview-cookie';
export { ROLLOUT_GUARDED_ACTIONS } from './rollout-guard';
