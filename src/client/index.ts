export { RhizomeClient, type ClientOptions } from './client.js';
export { RhizomeApiError, RhizomeAuthMissingError, RhizomeConnectionError, type FieldError } from './errors.js';
export { isLocalUrl, readLocalCredentials, resolveAuth, SessionAuth, StaticAuth, type AuthProvider, type FetchLike } from './auth.js';
export { SessionStore, type StoredSession } from './session.js';
export * from './types.js';
