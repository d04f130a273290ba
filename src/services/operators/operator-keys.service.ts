// Operator keys: `opk_….secret`, presented as `Authorization: ApiKey opk_….secret`. They
// name no tenant and reach only the admin routes and /metrics. Created only by the CLI on
// the server (`rhizome operator create-key`), never over HTTP, so no tenant key can mint one.
import { iso, type Clock } from '../../clock.js';
import { isStorageError } from '../../db/storage-errors.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { OperatorKeysRepo } from '../../repos/operator-keys.repo.js';
import { digestsEqual, hmac, randomSecret } from '../../digests.js';
import { LAST_USED_RESOLUTION_MS } from '../auth/auth.service.js';

export const OPERATOR_KEY_PREFIX = 'opk_';

export interface OperatorPrincipal {
  kind: 'operator';
  id: string;
}

/** Whether a presented API key is an operator key (by its id's prefix; nothing is looked up). */
export function isOperatorKey(raw: string): boolean {
  return raw.startsWith(OPERATOR_KEY_PREFIX);
}

export class OperatorKeysService {
  constructor(
    private readonly repo: OperatorKeysRepo,
    private readonly secretKey: Buffer,
    private readonly clock: Clock,
  ) {}

  async create(name: string): Promise<{ id: string; name: string; key: string; created_at: string }> {
    if (!/^[\p{L}\p{N} ._-]{1,100}$/u.test(name)) throw new ValidationError('An operator key name is 1–100 letters, digits, spaces, ".", "_" or "-"');
    const id = newId('opk');
    const secret = randomSecret();
    const created_at = iso(this.clock.now());
    await this.repo.insert({ id, name, secret_hmac: hmac(this.secretKey, secret), created_at });
    return { id, name, key: `${id}.${secret}`, created_at };
  }

  async list() {
    return await this.repo.list();
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.repo.revoke(id, iso(this.clock.now())))) throw new NotFoundError('Operator key');
  }

  async authenticate(raw: string): Promise<OperatorPrincipal> {
    const dot = raw.indexOf('.');
    if (dot <= 0 || dot === raw.length - 1) throw new UnauthorizedError('Malformed operator key: expected {key_id}.{secret}');
    const row = await this.repo.findActive(raw.slice(0, dot));
    // The digest is computed for unknown ids too, so timing does not tell which ids exist.
    const presented = hmac(this.secretKey, raw.slice(dot + 1));
    if (!row || !digestsEqual(presented, row.secret_hmac)) throw new UnauthorizedError('Unknown or revoked operator key');
    const now = this.clock.now();
    if (!row.last_used_at || now - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      try {
        await this.repo.touch(row.id, iso(now));
      } catch (e) {
        if (!isStorageError(e)) throw e; // best effort, as for tenant keys
      }
    }
    return { kind: 'operator', id: row.id };
  }
}
