/**
 * A SQL expression that makes a new RFC 9562 UUID v7, for ids made in a statement itself (one
 * per row of an INSERT … SELECT): Postgres before 18 has no uuidv7(). It takes a v4 (122 random
 * bits, variant 10), writes the Unix time in milliseconds (clock_timestamp(), so each row its
 * own) over its first 48 bits, and turns the version nibble 0100 into 0111 (set_bit numbers
 * bits from the least significant of each byte: bits 52 and 53 are in byte 6's high nibble).
 * That leaves rand_a and rand_b random: 74 bits. Ids made in the same millisecond are not
 * ordered among themselves, which RFC 9562 allows. Runs on Postgres 13+ and on PGlite.
 */
export const UUID_V7_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid`;
