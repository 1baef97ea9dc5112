import { reauthenticateWithPassword } from '../../../lib/auth';

/**
 * The step before a sensitive action (change password or email, sign out everywhere, download my
 * data, delete my account): the user types their password, Firebase checks it, and the fresh ID
 * token the API then receives carries a new `auth_time`, which the server's recent-sign-in rule asks
 * for (403 RECENT_SIGN_IN_REQUIRED otherwise).
 */
export const WRONG_PASSWORD_MESSAGE = 'That password is not right. Please try again.';
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';
export const CONFIRM_FAILED_MESSAGE = 'We could not check your password. Please try again.';

export class ConfirmPasswordError extends Error {
  constructor(
    message: string,
    readonly reason: 'wrong-password' | 'too-many-attempts' | 'failed',
  ) {
    super(message);
    this.name = 'ConfirmPasswordError';
  }
}

const errorCode = (error: unknown): string | undefined =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** Maps Firebase's re-authentication failures to what the dialog says. */
export const confirmPasswordFailure = (error: unknown): ConfirmPasswordError => {
  switch (errorCode(error)) {
    case 'auth/wrong-password':
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
    case 'auth/missing-password':
      return new ConfirmPasswordError(WRONG_PASSWORD_MESSAGE, 'wrong-password');
    case 'auth/too-many-requests':
      return new ConfirmPasswordError(TOO_MANY_ATTEMPTS_MESSAGE, 'too-many-attempts');
    default:
      return new ConfirmPasswordError(CONFIRM_FAILED_MESSAGE, 'failed');
  }
};

/** Re-authenticates with the password; resolves with the fresh ID token or throws ConfirmPasswordError. */
export const confirmPassword = async (password: string): Promise<string> => {
  if (!password) throw new ConfirmPasswordError(WRONG_PASSWORD_MESSAGE, 'wrong-password');
  try {
    return await reauthenticateWithPassword(password);
  } catch (error) {
    throw confirmPasswordFailure(error);
  }
};
