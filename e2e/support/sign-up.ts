import type { Page } from '@playwright/test';

/** A fresh valid card code (15 random digits + Luhn check digit): each sign-up needs its own card. */
export function newCardCode(): string {
  const digits = Array.from({ length: 15 }, (_, i) => (i === 0 ? 4 : Math.floor(Math.random() * 10)));
  let sum = 0;
  // Double every second digit from the right, counting the check digit as position 1.
  digits
    .slice()
    .reverse()
    .forEach((digit, index) => {
      const doubled = index % 2 === 0 ? digit * 2 : digit;
      sum += doubled > 9 ? doubled - 9 : doubled;
    });
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

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
