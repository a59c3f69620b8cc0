/**
 * The error `promise` rejects with, checked to be an `ErrorClass`; fails the test if it resolves
 * or rejects with anything else. For asserting on an error's fields, not only its message.
 */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  ErrorClass: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ErrorClass) return error;
    throw error;
  }
  throw new Error(`expected a rejection with ${ErrorClass.name}, but the promise resolved`);
}
