import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource, EntityManager } from 'typeorm';

interface StoreRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * oidc-provider's storage in auth.oauth_store: one row per (model, id), with the grant id,
 * user code and uid copied out of the payload into indexed columns. Expired rows are never
 * returned (expires_at is indexed so they can be swept in bulk).
 */
export class OAuthStoreAdapter implements Adapter {
  constructor(
    private readonly model: string,
    /** The data source, or the manager of a transaction the store's writes must join. */
    private readonly dataSource: DataSource | EntityManager,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.dataSource.query(
      `INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "grant_id", "user_code", "uid", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ("model", "id") DO UPDATE SET
         "payload" = EXCLUDED."payload", "grant_id" = EXCLUDED."grant_id", "user_code" = EXCLUDED."user_code",
         "uid" = EXCLUDED."uid", "expires_at" = EXCLUDED."expires_at"`,
      [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findBy('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE "auth"."oauth_store" SET "consumed_at" = now() WHERE "model" = $1 AND "id" = $2 AND "consumed_at" IS NULL`,
      [this.model, id],
    );
  }

  async destroy(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "auth"."oauth_store" WHERE "model" = $1 AND "id" = $2`, [this.model, id]);
  }

  /** Every artifact of the grant, whatever its model (codes, tokens, device codes). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "auth"."oauth_store" WHERE "grant_id" = $1`, [grantId]);
  }

  /** The ids of this model's unexpired rows. */
  async activeIds(): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT "id" FROM "auth"."oauth_store" WHERE "model" = $1 AND ("expires_at" IS NULL OR "expires_at" > now())`,
      [this.model],
    )) as { id: string }[];
    return rows.map((row) => row.id);
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT "payload", "consumed_at" FROM "auth"."oauth_store"
       WHERE "model" = $1 AND "${column}" = $2 AND ("expires_at" IS NULL OR "expires_at" > now())
       LIMIT 1`,
      [this.model, value],
    )) as StoreRow[];
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  }
}

