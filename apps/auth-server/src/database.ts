import type { DataSourceSpec } from '#libs/persistence';
import { CreateAuthTables1795314125777 } from './migrations/1795314125777-CreateAuthTables.js';
import { AddOAuthStore1795319801201 } from './migrations/1795319801201-AddOAuthStore.js';
import { IndexGrantsByAccount1795400000000 } from './migrations/1795400000000-IndexGrantsByAccount.js';
import { OutboxTraceContext1796000000000 } from './migrations/1796000000000-OutboxTraceContext.js';
import { HashOAuthSecrets1796100000000 } from './migrations/1796100000000-HashOAuthSecrets.js';
import { AccountSessions1796200000000 } from './migrations/1796200000000-AccountSessions.js';
import { UnusedClientsExpire1796300000000 } from './migrations/1796300000000-UnusedClientsExpire.js';
import { Retention1796450000000 } from './migrations/1796450000000-Retention.js';
import { OAuthRecordTables1796500000000 } from './migrations/1796500000000-OAuthRecordTables.js';
import { OrganizationTimeZone1796700000010 } from './migrations/1796700000010-OrganizationTimeZone.js';
import { AccountEmail1796760000000 } from './migrations/1796760000000-AccountEmail.js';

export const AUTH_SCHEMA = 'auth';

/** The auth-server's schema: its tables and migrations (never synchronized). */
export const authDataSourceSpec: DataSourceSpec = {
  schema: AUTH_SCHEMA,
  entities: [],
  migrations: [
    CreateAuthTables1795314125777,
    AddOAuthStore1795319801201,
    IndexGrantsByAccount1795400000000,
    OutboxTraceContext1796000000000,
    HashOAuthSecrets1796100000000,
    AccountSessions1796200000000,
    UnusedClientsExpire1796300000000,
    Retention1796450000000,
    OAuthRecordTables1796500000000,
    OrganizationTimeZone1796700000010,
    AccountEmail1796760000000,
  ],
};
