import { invitationMessages } from '@marketplace/events/invitations';
import { ApiError, apiErrorText } from '../../lib/api-client';

export const firebaseErrorCode = (error: unknown): string | undefined =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** Firebase's answers to a wrong password: older SDKs and the emulator say wrong-password, newer ones invalid-credential. */
const WRONG_PASSWORD_CODES = new Set([
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
]);

export const isWrongPassword = (error: unknown) => WRONG_PASSWORD_CODES.has(firebaseErrorCode(error) ?? '');

export const isEmailAlreadyInUse = (error: unknown) => firebaseErrorCode(error) === 'auth/email-already-in-use';

/** The server's message, else the error's own message, else the spec's fallback; Firebase's raw messages are not for people. */
export const signupFailureText = (error: unknown): string => {
  if (error instanceof ApiError) return apiErrorText(error, invitationMessages.signupFailed);
  const code = firebaseErrorCode(error);
  if (code === 'auth/weak-password') return invitationMessages.passwordTooShort;
  if (code) return invitationMessages.signupFailed;
  return error instanceof Error && error.message ? error.message : invitationMessages.signupFailed;
};
