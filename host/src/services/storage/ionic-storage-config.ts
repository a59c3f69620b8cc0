/**
 * The old Ionic app's storage settings (@ionic/storage defaults), so we read what it wrote on the
 * same origin: database `_ionicstorage`, store `_ionickv`. (Its `dbKey` only keyed the Cordova
 * SQLCipher driver, which the web never had.)
 */
export const IONIC_STORAGE_CONFIG = {
  name: '_ionicstorage',
  storeName: '_ionickv',
} as const;

/** Ionic's secure-storage driver name; never defined on the web, so localforage skips it. */
export const SECURE_STORAGE_DRIVER = 'ionicSecureStorage';
export const MEMORY_DRIVER = 'memoryStorage';
