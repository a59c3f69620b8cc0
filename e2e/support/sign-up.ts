import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL } from './topology';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';

/** A fresh valid card code (random payload + Luhn check digit): each sign-up needs its own card. */
export const newCardCode = (): string => makeTestCardCode(Math.floor(Math.random() * 1e15));

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  cardCode: string;
}

export const person = (overrides: Partial<Person> = {}): Person => ({
  firstName: 'Amira',
  lastName: 'Haddad',
  email: 'amira.haddad@example.com',
  phone: '+44 7700 900123',
  cardCode: newCardCode(),
  ...overrides,
});

/** Fills the sign-up form through its inputs by their ids (labels differ per language). */
export async function fillSignUp(page: Page, who: Person, options: { acceptTerms?: boolean } = {}) {
  await page.locator('#signup-firstName').fill(who.firstName);
  await page.locator('#signup-lastName').fill(who.lastName);
  await page.locator('#signup-email').fill(who.email);
  if (who.phone) await page.locator('#signup-phone').fill(who.phone);
  await page.locator('#signup-cardCode').fill(who.cardCode);
  if (options.acceptTerms ?? true) await page.locator('#signup-acceptedTerms').check();
}

/**
 * The card is now taken, so any other submission for it, with another key, is refused (409): with
 * the card code UNIQUE in the database, the sign-up was stored exactly once.
 */
export async function expectCardTaken(request: APIRequestContext, who: Person): Promise<void> {
  expect(await postSignUp(request, who)).toBe(409);
}

/** A sign-up sent straight to the API, with a fresh key; its status. */
export async function postSignUp(request: APIRequestContext, who: Person): Promise<number> {
  const xsrf = 'e2e-token';
  const response = await request.post(`${API_URL}/v1/sign-ups`, {
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': `e2e-${Date.now()}-${Math.random()}`,
      'X-XSRF-TOKEN': xsrf,
      Cookie: `XSRF-TOKEN=${xsrf}`,
    },
    data: { ...who, acceptedTerms: true },
  });
  return response.status();
}

/**
 * What the app keeps on the device under `key` (`signUp.outbox`, `signUp.result`: localforage's
 * IndexedDB database), or null. A page function, self-contained, for Playwright's `page.evaluate`
 * and the engines' `driver.evaluate` alike; run it in a page of the host's origin.
 */
export const readKept = (key: string): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const open = indexedDB.open('_ionicstorage');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const read = open.result.transaction('_ionickv').objectStore('_ionickv').get(key);
      read.onsuccess = () => resolve(read.result ?? null);
      read.onerror = () => reject(read.error);
    };
  });
