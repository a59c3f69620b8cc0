import type { KeyValueStorage } from '@special-gift/shared';
import { EMPTY_VALUES, type SignUpValues } from './sign-up-values';

export const DRAFT_STORAGE_KEY = 'signUp.draft';

/**
 * What is kept while the user types. The idempotency key of a submission that may have reached
 * the server is kept too, so a retry after a reload can never create a second sign-up.
 */
export interface SignUpDraft {
  readonly values: SignUpValues;
  readonly idempotencyKey?: string;
}

/** The form's values in what was stored (a draft, a queued sign-up's body): anything else left out. */
export function toSignUpValues(stored: object): SignUpValues {
  const values = { ...EMPTY_VALUES };
  for (const key of Object.keys(EMPTY_VALUES) as Array<keyof SignUpValues>) {
    const value = (stored as Partial<SignUpValues>)[key];
    if (typeof value === typeof EMPTY_VALUES[key]) (values as Record<string, unknown>)[key] = value;
  }
  return values;
}

export async function readDraft(storage: KeyValueStorage): Promise<SignUpDraft | null> {
  const stored = await storage.get<Partial<SignUpDraft>>(DRAFT_STORAGE_KEY);
  if (!stored || typeof stored.values !== 'object' || stored.values === null) return null;
  const values = toSignUpValues(stored.values);
  return typeof stored.idempotencyKey === 'string' ? { values, idempotencyKey: stored.idempotencyKey } : { values };
}

export const writeDraft = (storage: KeyValueStorage, draft: SignUpDraft) => storage.set(DRAFT_STORAGE_KEY, draft);
export const clearDraft = (storage: KeyValueStorage) => storage.remove(DRAFT_STORAGE_KEY);
