// The unit of work: the only way services group writes. Services never hold the driver;
// they say "this is one transaction" and "run this once it has committed". Both stores
// (store/sqlite-store.ts, store/pg-store.ts) are one.
export type { UnitOfWork } from './store/contract.js';
