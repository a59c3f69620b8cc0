import { isSignUpResult, SIGN_UP_RESULT_STORAGE_KEY, useStorage, type SignUpResult } from '@special-gift/shared';
import { useEffect, useState } from 'react';

/** The sign-up this screen thanks for: undefined while reading, null when there is none. */
export function useSignUpResult(): SignUpResult | null | undefined {
  const storage = useStorage();
  const [result, setResult] = useState<SignUpResult | null | undefined>(undefined);
  useEffect(() => {
    let active = true;
    storage
      .get<unknown>(SIGN_UP_RESULT_STORAGE_KEY)
      .then((value) => active && setResult(isSignUpResult(value) ? value : null))
      .catch(() => active && setResult(null)); // unreadable storage: show the generic thanks
    return () => {
      active = false;
    };
  }, [storage]);
  return result;
}
