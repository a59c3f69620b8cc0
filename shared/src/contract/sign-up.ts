/**
 * Data the sign-up screen hands to the thank-you screen through the shell's storage, so the
 * thank-you screen still greets the user after a reload.
 */
export const SIGN_UP_RESULT_STORAGE_KEY = 'signUp.result';

export interface SignUpResult {
  readonly firstName: string;
  readonly email: string;
  readonly cardLast4: string;
  readonly createdAt: string;
}

export function isSignUpResult(value: unknown): value is SignUpResult {
  const candidate = value as Partial<SignUpResult> | null;
  return (
    typeof candidate?.firstName === 'string' &&
    typeof candidate.email === 'string' &&
    typeof candidate.cardLast4 === 'string' &&
    typeof candidate.createdAt === 'string'
  );
}
