import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, type TestStack } from '#libs/testing';
import { authServerApp } from '../index.js';
import { loadOrCreateOAuthKeys } from './oauth-keys.js';
import { byValueOnly, OAuthStoreAdapter } from './oauth-store.adapter.js';

let stack: TestStack;
let running: RunningApp;
let dataSource: DataSource;

beforeAll(async () => {
  stack = await createTestStack('auth_oauth_store');
  running = await stack.boot(authServerApp, { ADMIN_TOKEN: 'oauth-store-admin-token' });
  dataSource = running.context.dataSource!;
});

afterAll(async () => {
  await stack?.close();
});

let sequence = 0;
const uniqueId = (label: string) => `${label}-${++sequence}-${Date.now()}`;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Moves a row's expiry into the past, as if its lifetime had elapsed (the row of a secret is keyed by its hash). */
async function expire(model: string, id: string): Promise<void> {
  await dataSource.query(
    `UPDATE "auth"."oauth_store" SET "expires_at" = now() - interval '1 second' WHERE "model" = $1 AND "id" IN ($2, $3)`,
    [model, id, sha256(id)],
  );
}

describe('OAuthStoreAdapter', () => {
  it('finds a stored payload by id within its model only', async () => {
    const codes = new OAuthStoreAdapter('AuthorizationCode', dataSource);
    const id = uniqueId('code');
    await codes.upsert(id, { grantId: 'g1', scope: 'signups:read' }, 60);
    expect(await codes.find(id)).toEqual({ grantId: 'g1', scope: 'signups:read', jti: id });
    expect(await new OAuthStoreAdapter('RefreshToken', dataSource).find(id)).toBeUndefined();
  });

  it('replaces the payload on a second upsert of the same id', async () => {
    const clients = new OAuthStoreAdapter('Client', dataSource);
    const id = uniqueId('client');
    await clients.upsert(id, { client_name: 'before' });
    await clients.upsert(id, { client_name: 'after' });
    expect(await clients.find(id)).toEqual({ client_name: 'after' });
  });

  it('stops returning a payload once it has expired', async () => {
    const codes = new OAuthStoreAdapter('AuthorizationCode', dataSource);
    const id = uniqueId('code');
    await codes.upsert(id, { grantId: 'g2' }, 60);
    await expire('AuthorizationCode', id);
    expect(await codes.find(id)).toBeUndefined();
  });

  it('keeps a payload stored without an expiry', async () => {
    const grants = new OAuthStoreAdapter('GrantOrganization', dataSource);
    const id = uniqueId('grant');
    await grants.upsert(id, { organizationId: 'org_1' });
    const [row] = (await dataSource.query(
      `SELECT "expires_at" FROM "auth"."oauth_store" WHERE "model" = 'GrantOrganization' AND "id" = $1`,
      [id],
    )) as { expires_at: Date | null }[];
    expect(row?.expires_at).toBeNull();
    expect(await grants.find(id)).toEqual({ organizationId: 'org_1' });
  });

  it('keeps a client for 30 days from its registration or its last use, and then no longer finds it', async () => {
    const clients = new OAuthStoreAdapter('Client', dataSource);
    const id = uniqueId('cli');
    await clients.upsert(id, { client_name: 'soon unused' });
    const lifetime = async () =>
      (
        await dataSource.query<{ days: number }[]>(
          `SELECT round(extract(epoch FROM "expires_at" - now()) / 86400)::int AS "days" FROM "auth"."oauth_store" WHERE "model" = 'Client' AND "id" = $1`,
          [id],
        )
      )[0]?.days;
    expect(await lifetime()).toBe(30);
    await dataSource.query(
      `UPDATE "auth"."oauth_store" SET "expires_at" = now() + interval '2 days' WHERE "model" = 'Client' AND "id" = $1`,
      [id],
    );
    await clients.touchClient(id);
    expect(await lifetime()).toBe(30);
    await expire('Client', id);
    await clients.touchClient(id);
    expect(await clients.find(id)).toBeUndefined();
  });

  it('marks a consumed payload with the time of its first consumption', async () => {
    const codes = new OAuthStoreAdapter('AuthorizationCode', dataSource);
    const id = uniqueId('code');
    await codes.upsert(id, { grantId: 'g3' }, 60);
    expect(await codes.find(id)).not.toHaveProperty('consumed');
    const before = Math.floor(Date.now() / 1000) - 1;
    await codes.consume(id);
    const first = await codes.find(id);
    expect(first?.consumed).toBeGreaterThanOrEqual(before);
    await codes.consume(id);
    expect((await codes.find(id))?.consumed).toBe(first?.consumed);
  });

  it('finds a device code by its user code and a session by its uid, until they expire', async () => {
    const deviceCodes = new OAuthStoreAdapter('DeviceCode', dataSource);
    const sessions = new OAuthStoreAdapter('Session', dataSource);
    const deviceId = uniqueId('dc');
    const sessionId = uniqueId('session');
    const userCode = uniqueId('USER');
    const uid = uniqueId('uid');
    await deviceCodes.upsert(deviceId, { userCode, grantId: 'g4' }, 600);
    await sessions.upsert(sessionId, { uid }, 3600);
    expect(await deviceCodes.findByUserCode(userCode)).toMatchObject({ userCode, grantId: 'g4' });
    expect(await sessions.findByUid(uid)).toMatchObject({ uid });
    await expire('DeviceCode', deviceId);
    await expire('Session', sessionId);
    expect(await deviceCodes.findByUserCode(userCode)).toBeUndefined();
    expect(await sessions.findByUid(uid)).toBeUndefined();
  });

  it('destroys one payload', async () => {
    const tokens = new OAuthStoreAdapter('RefreshToken', dataSource);
    const id = uniqueId('rt');
    await tokens.upsert(id, { grantId: 'g5' }, 3600);
    await tokens.destroy(id);
    expect(await tokens.find(id)).toBeUndefined();
  });

  it('revokes every artifact of a grant, whatever its model, and nothing else', async () => {
    const grantId = uniqueId('grant');
    const codes = new OAuthStoreAdapter('AuthorizationCode', dataSource);
    const tokens = new OAuthStoreAdapter('RefreshToken', dataSource);
    const codeId = uniqueId('code');
    const tokenId = uniqueId('rt');
    const otherId = uniqueId('rt');
    await codes.upsert(codeId, { grantId }, 60);
    await tokens.upsert(tokenId, { grantId }, 3600);
    await tokens.upsert(otherId, { grantId: uniqueId('grant') }, 3600);
    await tokens.revokeByGrantId(grantId);
    expect(await codes.find(codeId)).toBeUndefined();
    expect(await tokens.find(tokenId)).toBeUndefined();
    expect(await tokens.find(otherId)).toBeDefined();
  });
});

describe('OAuthStoreAdapter secrets', () => {
  const rowsOf = (model: string) =>
    dataSource.query<{ id: string; payload: unknown; user_code: string | null }[]>(
      `SELECT "id", "payload", "user_code" FROM "auth"."oauth_store" WHERE "model" = $1`,
      [model],
    );

  it('keeps a code, token or session under the SHA-256 of its value, the value nowhere in the row, and gives the value back as jti', async () => {
    for (const model of ['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'Session', 'RegistrationAccessToken']) {
      const store = new OAuthStoreAdapter(model, dataSource);
      const value = uniqueId(`${model}_value`);
      await store.upsert(value, { jti: value, grantId: 'g6', userCode: `${value}-user` }, 60);
      const rows = await rowsOf(model);
      expect(rows.map((row) => row.id)).toContain(sha256(value));
      expect(JSON.stringify(rows)).not.toContain(value);
      expect(await store.find(value)).toEqual({ jti: value, grantId: 'g6' });
      expect(await store.find(sha256(value))).toBeUndefined();
    }
  });

  it('keeps the ids of models that hold no secret (clients, grants) as they are', async () => {
    const grants = new OAuthStoreAdapter('Grant', dataSource);
    const id = uniqueId('grant');
    await grants.upsert(id, { jti: id, accountId: 'usr_1' }, 60);
    expect((await rowsOf('Grant')).map((row) => row.id)).toContain(id);
    expect(await grants.find(id)).toEqual({ jti: id, accountId: 'usr_1' });
  });

  it('hands a device code found by its user code out under a reference that finds and saves the same row, except where only values count', async () => {
    const deviceCodes = new OAuthStoreAdapter('DeviceCode', dataSource);
    const value = uniqueId('dc_');
    const userCode = uniqueId('WXYZ');
    await deviceCodes.upsert(value, { jti: value, userCode, params: { scope: 'signups:read' } }, 600);
    expect((await rowsOf('DeviceCode')).find((row) => row.id === sha256(value))?.user_code).toBe(sha256(userCode));

    const found = await deviceCodes.findByUserCode(userCode);
    const reference = found?.jti as string;
    expect(reference).toBe(`ref:${sha256(value)}`);
    expect(found).toMatchObject({ userCode, params: { scope: 'signups:read' } });
    await deviceCodes.upsert(reference, { ...found, accountId: 'usr_2' }, 600);
    expect(await deviceCodes.find(value)).toMatchObject({ jti: value, accountId: 'usr_2' });
    expect(await deviceCodes.find(reference)).toMatchObject({ jti: reference, accountId: 'usr_2' });
    expect(await deviceCodes.findByUserCode(userCode)).toMatchObject({ userCode, accountId: 'usr_2' });

    await byValueOnly(async () => {
      expect(await deviceCodes.find(reference)).toBeUndefined();
      await deviceCodes.consume(reference);
      await deviceCodes.destroy(reference);
      await expect(deviceCodes.upsert(reference, { accountId: 'usr_3' }, 600)).rejects.toThrow();
      expect(await deviceCodes.find(value)).toMatchObject({ accountId: 'usr_2' });
    });
    expect(await deviceCodes.find(value)).not.toHaveProperty('consumed');
  });

  it('hands a session found by its uid out under a reference that stands for nothing', async () => {
    const sessions = new OAuthStoreAdapter('Session', dataSource);
    const value = uniqueId('session');
    const uid = uniqueId('uid');
    await sessions.upsert(value, { jti: value, uid, accountId: 'usr_5' }, 600);
    const reference = (await sessions.findByUid(uid))?.jti as string;
    expect(reference).toBe(`ref:${sha256(value)}`);
    expect(await sessions.find(reference)).toBeUndefined();
    await sessions.destroy(reference);
    expect(await sessions.find(value)).toMatchObject({ accountId: 'usr_5' });
  });

  it('stores an interaction with its device code and session cookie as references', async () => {
    const interactions = new OAuthStoreAdapter('Interaction', dataSource);
    const uid = uniqueId('interaction');
    const deviceCode = uniqueId('dc_');
    const cookie = uniqueId('session');
    await interactions.upsert(uid, { jti: uid, deviceCode, session: { uid: 'su', accountId: 'usr_4', cookie } }, 600);
    expect(JSON.stringify(await rowsOf('Interaction'))).not.toContain(deviceCode);
    expect(JSON.stringify(await rowsOf('Interaction'))).not.toContain(cookie);
    expect(await interactions.find(uid)).toEqual({
      jti: uid,
      deviceCode: `ref:${sha256(deviceCode)}`,
      session: { uid: 'su', accountId: 'usr_4', cookie: `ref:${sha256(cookie)}` },
    });
  });
});

describe('OAuth keys', () => {
  it('keeps the signing key made at the first boot for every later boot', async () => {
    const first = await loadOrCreateOAuthKeys(dataSource);
    const second = await loadOrCreateOAuthKeys(dataSource);
    expect(second.signingKey).toEqual(first.signingKey);
    expect(first.signingKey).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(second.cookieKeys).toEqual(first.cookieKeys);
  });
});
