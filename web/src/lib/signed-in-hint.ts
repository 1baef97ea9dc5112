/**
 * Whether someone was signed in when this browser last heard from Firebase. Start-up reads it to
 * decide if Firebase is needed at once: a visitor nobody has signed in yet gets the page without
 * downloading Firebase, which then loads when they start to sign in.
 */
const SIGNED_IN_KEY = 'marketplace.signedIn';

/** True unless this browser is known to have nobody signed in; unreadable storage counts as maybe. */
export const maybeSignedIn = (): boolean => {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) !== null;
  } catch {
    return true;
  }
};

export const rememberSignedIn = (signedIn: boolean): void => {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // Without storage every start-up loads Firebase, which is only slower.
  }
};

/** Calls back when another tab of this site signs someone in. */
export const onSignedInElsewhere = (callback: () => void): void => {
  window.addEventListener('storage', (event) => {
    if (event.key === SIGNED_IN_KEY && event.newValue !== null) callback();
  });
};
