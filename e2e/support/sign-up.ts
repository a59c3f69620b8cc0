import type { Page } from '@playwright/test';
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
