import { AuthNotConfiguredError } from '../../lib/auth';

export type AuthMode = 'signin' | 'signup';

/** What the login page says about a failed sign-in or sign-up, and which form it switches to, if any. */
export interface AuthFailure {
  message: string;
  switchTo?: AuthMode;
}

export const AUTH_NOT_CONFIGURED_MESSAGE = 'Authentication not configured. Please configure Firebase credentials.';
export const SIGN_IN_FAILED_MESSAGE = 'Failed to sign in. Please try again.';
export const WEAK_PASSWORD_MESSAGE = 'Password should be at least 6 characters long.';
export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Please contact support.';

const errorCode = (error: unknown): string | undefined =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

export const describeEmailAuthFailure = (error: unknown, mode: AuthMode): AuthFailure => {
  if (error instanceof AuthNotConfiguredError) return { message: AUTH_NOT_CONFIGURED_MESSAGE };
  switch (errorCode(error)) {
    case 'auth/email-already-in-use':
      return { message: 'This email is already registered. Try signing in instead.', switchTo: 'signin' };
    case 'auth/weak-password':
      return { message: WEAK_PASSWORD_MESSAGE };
    case 'auth/invalid-email':
      return { message: 'Please enter a valid email address.' };
    case 'auth/user-not-found':
      return { message: 'No account found with this email. Try signing up instead.', switchTo: 'signup' };
    case 'auth/wrong-password':
      return { message: 'Incorrect password. Please try again.' };
    case 'auth/user-disabled':
      return { message: ACCOUNT_DISABLED_MESSAGE };
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      return { message: 'Invalid email or password. Please check your credentials.' };
    default:
      return { message: mode === 'signup' ? 'Failed to create account. Please try again.' : SIGN_IN_FAILED_MESSAGE };
  }
};

export const describeGoogleAuthFailure = (error: unknown): AuthFailure => {
  if (error instanceof AuthNotConfiguredError) return { message: AUTH_NOT_CONFIGURED_MESSAGE };
  switch (errorCode(error)) {
    case 'auth/popup-closed-by-user':
    case 'auth/cancelled-popup-request':
      return { message: 'Sign in was cancelled' };
    case 'auth/user-disabled':
      return { message: ACCOUNT_DISABLED_MESSAGE };
    default:
      return { message: SIGN_IN_FAILED_MESSAGE };
  }
};
