/** The small part of oidc-provider 9 (which ships no types) that the auth-server uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface OidcClient {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }

  /** The parts of Koa's context the auth-server's middleware reads. */
  export interface KoaContext {
    req: IncomingMessage;
    /** Koa's request; `secure` is whether it came over https. */
    request: object;
    response: { get(field: string): string; remove(field: string): void };
    method: string;
    /** The parsed query string. */
    query: Record<string, string | string[] | undefined>;
    /** Per-request state shared by the middleware. */
    state: Record<string, unknown>;
    path: string;
    /** The response's media type, without parameters. */
    type: string;
    set(headers: Record<string, string>): void;
    status: number;
    body: unknown;
    oidc?: { route?: string; params?: Record<string, unknown>; client?: { clientId: string } };
  }

  export type Configuration = Record<string, unknown>;

  /** What an interaction policy check reads of the authorization request. */
  export interface PolicyContext {
    oidc: {
      client: OidcClient;
      params: Record<string, unknown>;
      session: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      /** The resources of the request, each with the scopes it offers. */
      resourceServers: Record<string, { scopes: Set<string> }>;
      requestParamScopes: Set<string>;
      /** What this interaction has recorded so far (a sign-in, a consent). */
      result?: { login?: unknown };
    };
  }

  export const interactionPolicy: {
    Check: new (
      reason: string,
      description: string,
      check: (ctx: PolicyContext) => boolean | Promise<boolean>,
      details: (ctx: PolicyContext) => Record<string, unknown>,
    ) => object;
    base(): { get(name: string): { checks: object[] } | undefined };
  };

  /** What provider.interactionDetails answers about the pending interaction. */
  export interface InteractionDetails {
    uid: string;
    /** The provider's resume URL of this interaction. */
    returnTo: string;
    params: Record<string, unknown>;
    prompt: { name: string; details: Record<string, unknown> };
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantModel {
    new (properties: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface ClientModel {
    find(id: string): Promise<(OidcClient & { clientName?: string }) | undefined>;
    prototype: { compareClientSecret(actual: string): boolean | Promise<boolean> };
  }

  /** A model whose values oidc-provider makes with generateTokenId (codes and tokens). */
  export interface TokenModel {
    prototype: { generateTokenId(): string };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: string, listener: (...args: never[]) => void): this;
    Grant: GrantModel;
    Client: ClientModel;
    AuthorizationCode: TokenModel;
    RefreshToken: TokenModel;
    DeviceCode: TokenModel;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidClientMetadata: new (description: string) => Error;
  };
}
