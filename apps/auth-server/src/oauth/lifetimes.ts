/** How long each OAuth artifact lives, in seconds. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const GRANT_TTL_SECONDS = REFRESH_TOKEN_TTL_SECONDS;
/** A revoked grant is remembered while an access token issued before the revocation may be unexpired, with room for clock skew. */
export const REVOKED_GRANT_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS + 300;
/** A registered client unused this long (no authorization, token or revocation) is swept. */
export const UNUSED_CLIENT_TTL_SECONDS = 30 * 24 * 3600;
/** A client's lifetime is pushed back at most once this often, so its uses do not each write. */
export const CLIENT_TOUCH_INTERVAL_SECONDS = 24 * 3600;
