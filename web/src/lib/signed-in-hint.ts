/**
 * Whether someone was signed in when this browser last heard from Firebase. Start-up reads it to
 * decide if Firebase is needed at once: a visitor nobody has signed in yet gets the page without
 * downloading Firebase, which then loads when they start to sign in.
 */
const SIGNED_IN_KEY = 'marketplace.signedIn';
/** Where Firebase keeps the signed-in user: IndexedDB, else localStorage under this prefix. */
const FIREBASE_DATABASE = 'firebaseLocalStorageDb';
const FIREBASE_LOCAL_KEY_PREFIX = 'firebase:authUser:';

/**
 * 'yes' or 'no' once this browser has been told; 'unknown' for a browser the hint has never seen:
 * a first visit, or someone who signed in before the hint existed (see firebaseKeptASignIn).
 * Unreadable storage counts as 'yes': loading Firebase is only slower.
 */
export const signedInHint = (): 'yes' | 'no' | 'unknown' => {
  try {
    const value = localStorage.getItem(SIGNED_IN_KEY);
    if (value === '1') return 'yes';
    if (value === '0') return 'no';
    for (let i = 0; i < localStorage.length; i++) {
      if (localStorage.key(i)?.startsWith(FIREBASE_LOCAL_KEY_PREFIX)) return 'yes';
    }
    return 'unknown';
  } catch {
    return 'yes';
  }
};

/** True unless this browser is known to have nobody signed in. */
export const maybeSignedIn = (): boolean => signedInHint() !== 'no';

/**
 * Whether Firebase has kept a sign-in store in this browser, for a browser the hint has never seen:
 * someone signed in before the hint existed must not be signed out by it. Where the browser cannot
 * list its databases, the answer is yes (Firebase loads, as it always did).
 */
export const firebaseKeptASignIn = async (): Promise<boolean> => {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((database) => database.name === FIREBASE_DATABASE);
  } catch {
    return true;
  }
};

export const rememberSignedIn = (signedIn: boolean): void => {
  try {
    localStorage.setItem(SIGNED_IN_KEY, signedIn ? '1' : '0');
  } catch {
    // Without storage every start-up loads Firebase, which is only slower.
  }
};

/** Calls back when another tab of this site signs someone in. */
export const onSignedInElsewhere = (callback: () => void): void => {
  window.addEventListener('storage', (event) => {
    if (event.key === SIGNED_IN_KEY && event.newValue === '1') callback();
  });
};
