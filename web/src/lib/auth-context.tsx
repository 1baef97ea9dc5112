import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { type AuthUser, onAuthChange } from './auth';

interface AuthState {
  user: AuthUser | null;
  /** True until the identity provider has said whether someone is signed in. */
  initializing: boolean;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ user: null, initializing: true });

  useEffect(() => onAuthChange((user) => setState({ user, initializing: false })), []);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
