import { AsyncLocalStorage } from 'node:async_hooks';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { sha256Hex } from '#libs/contracts';
import { affectedBy, type Db, rowsOf } from '#libs/persistence';
import { CLIENT_TOUCH_INTERVAL_SECONDS, UNUSED_CLIENT_TTL_SECONDS } from './lifetimes.js';

interface StoreRow {
  id: string;
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * Models whose id is a bearer secret (a code, a token, a session cookie's value): the row holds
 * the value's SHA-256 as its id and the value nowhere else. 256 random bits need no salt or slow hash.
 */
const SECRET_MODELS = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'Session',
  'RegistrationAccessToken',
  'AccessToken',
  'ClientCredentials',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
  'BackchannelAuthenticationRequest',
]);

/**
 * A row found by something other than its value (a device code by its user code, a session by
 * its uid) is handed to oidc-provider under a reference to its key; an interaction names its
 * device code and session cookie the same way. Only a device code is found and saved again by
 * its reference (the device flow's later steps); every other reference stands for nothing.
 */
const REFERENCE = 'ref:';
const FOUND_BY_REFERENCE = 'DeviceCode';

/**
 * Requests whose parameters name stored artifacts by their value (the token and revocation
 * endpoints): a reference sent there must never stand for the value it hides, or reading the
 * table would be enough to use what it holds.
 */
const valuesOnly = new AsyncLocalStorage<true>();

/** Runs `next` where the store resolves artifacts by their value only. */
export function byValueOnly<T>(next: () => Promise<T>): Promise<T> {
  return valuesOnly.run(true, next);
}

function referenceTo(key: string): string {
  return `${REFERENCE}${key}`;
}

/** A secret payload value in a non-secret model's payload, replaced by its reference. */
function referenced(value: unknown): unknown {
  return typeof value === 'string' && !value.startsWith(REFERENCE) ? referenceTo(sha256Hex(value)) : value;
}

/**
 * oidc-provider's storage in auth.oauth_store: one row per (model, id), with the grant id,
 * user code and uid copied out of the payload into indexed columns. Expired rows are never
 * returned (expires_at is indexed so they can be swept in bulk). Secrets are kept as their
 * SHA-256 only (see SECRET_MODELS): the row id, a device code's user code, an interaction's
 * device code and session cookie, a confidential client's secret (see hashClientSecrets).
 */
export class OAuthStoreAdapter implements Adapter {
  private readonly secret: boolean;

  constructor(
    private readonly model: string,
    /** The data source, or the manager of a transaction the store's writes must join. */
    private readonly dataSource: Db,
  ) {
    this.secret = SECRET_MODELS.has(model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const key = this.keyOf(id);
    if (key === undefined) throw new Error(`A ${this.model} cannot be saved under a reference here.`);
    const lifetime = expiresIn ?? (this.model === 'Client' ? UNUSED_CLIENT_TTL_SECONDS : undefined);
    const expiresAt = typeof lifetime === 'number' ? new Date(Date.now() + lifetime * 1000) : null;
    const userCode = typeof payload.userCode === 'string' ? sha256Hex(payload.userCode) : null;
    await affectedBy(
      this.dataSource,
      `INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "grant_id", "user_code", "uid", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ("model", "id") DO UPDATE SET
         "payload" = EXCLUDED."payload", "grant_id" = EXCLUDED."grant_id",
         "user_code" = COALESCE(EXCLUDED."user_code", "oauth_store"."user_code"),
         "uid" = EXCLUDED."uid", "expires_at" = EXCLUDED."expires_at"`,
      [this.model, key, JSON.stringify(this.stored(payload)), payload.grantId ?? null, userCode, payload.uid ?? null, expiresAt],
    );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const key = this.keyOf(id);
    if (key === undefined) return undefined;
    const row = await this.findBy('id', key);
    return row && this.restored(row, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.findBy('uid', uid);
    return row && this.restored(row, referenceTo(row.id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.findBy('user_code', sha256Hex(userCode));
    return row && { ...this.restored(row, referenceTo(row.id)), userCode };
  }

  async consume(id: string): Promise<void> {
    const key = this.keyOf(id);
    if (key === undefined) return;
    await affectedBy(
      this.dataSource,
      `UPDATE "auth"."oauth_store" SET "consumed_at" = now() WHERE "model" = $1 AND "id" = $2 AND "consumed_at" IS NULL`,
      [this.model, key],
    );
  }

  async destroy(id: string): Promise<void> {
    const key = this.keyOf(id);
    if (key === undefined) return;
    await affectedBy(this.dataSource, `DELETE FROM "auth"."oauth_store" WHERE "model" = $1 AND "id" = $2`, [this.model, key]);
  }

  /**
   * A client was used: it lives UNUSED_CLIENT_TTL_SECONDS from now (written at most once per
   * CLIENT_TOUCH_INTERVAL_SECONDS), so only clients nobody uses expire and are swept.
   */
  async touchClient(clientId: string): Promise<void> {
    await affectedBy(
      this.dataSource,
      `UPDATE "auth"."oauth_store" SET "expires_at" = now() + make_interval(secs => $2)
       WHERE "model" = 'Client' AND "id" = $1 AND "expires_at" > now() AND "expires_at" < now() + make_interval(secs => $3)`,
      [clientId, UNUSED_CLIENT_TTL_SECONDS, UNUSED_CLIENT_TTL_SECONDS - CLIENT_TOUCH_INTERVAL_SECONDS],
    );
  }

  /** Every artifact of the grant, whatever its model (codes, tokens, device codes). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await affectedBy(this.dataSource, `DELETE FROM "auth"."oauth_store" WHERE "grant_id" = $1`, [grantId]);
  }

  /** The row key of an id: the id itself, or for a secret model its hash; undefined for a reference that may not stand for a value here. */
  private keyOf(id: string): string | undefined {
    if (!this.secret) return id;
    if (!id.startsWith(REFERENCE)) return sha256Hex(id);
    return this.model === FOUND_BY_REFERENCE && !valuesOnly.getStore() ? id.slice(REFERENCE.length) : undefined;
  }

  /** The payload as stored: no secret model keeps its own value (jti) or a user code; an interaction names its device code and session by reference. */
  private stored(payload: AdapterPayload): AdapterPayload {
    if (this.secret) {
      const { jti: _jti, userCode: _userCode, ...rest } = payload;
      return rest;
    }
    if (this.model === 'Client' && typeof payload.client_secret === 'string')
      return { ...payload, client_secret: sha256Hex(payload.client_secret) };
    if (this.model !== 'Interaction') return payload;
    const session = payload.session as Record<string, unknown> | undefined;
    return {
      ...payload,
      ...(payload.deviceCode === undefined ? {} : { deviceCode: referenced(payload.deviceCode) }),
      ...(session?.cookie === undefined ? {} : { session: { ...session, cookie: referenced(session.cookie) } }),
    };
  }

  /** The payload as oidc-provider saved it, its value (jti) given back as the caller named it. */
  private restored(row: StoreRow, jti: string): AdapterPayload {
    const payload = this.secret ? { ...row.payload, jti } : row.payload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<StoreRow | undefined> {
    const rows = await rowsOf<StoreRow>(
      this.dataSource,
      `SELECT "id", "payload", "consumed_at" FROM "auth"."oauth_store"
       WHERE "model" = $1 AND "${column}" = $2 AND ("expires_at" IS NULL OR "expires_at" > now())
       LIMIT 1`,
      [this.model, value],
    );
    return rows[0];
  }
}
