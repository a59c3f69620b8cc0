/// <reference lib="webworker" />
/**
 * The kill switch (docs/offline.md): what the host serves as /service-worker.js when the operator
 * sets SERVICE_WORKER=off. Browsers fetch that script, uncached, on every navigation and at least
 * daily; this one differs from the worker, so it replaces it at once, deletes the caches,
 * unregisters itself and reloads the app's open pages onto the network. Nothing else: a broken
 * worker's own code never has to run for it to be removed.
 */
import { retire } from './retire';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(retire(self)));
