import { ProblemError } from '#libs/problem';

/** The ProblemError a call fails with; fails the test when the call succeeds or throws something else. */
export async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem, got a result');
}
