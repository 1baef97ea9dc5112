/** The local gateway verifies tokens as the cloud's JWT authorizer does, with the services' own verifier. */
export { firebaseTokenVerifier, type VerifyToken } from '../src/adapters/id-token';
