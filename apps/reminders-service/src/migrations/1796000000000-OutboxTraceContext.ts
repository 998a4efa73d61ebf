import { outboxTraceContextMigration } from '#libs/bus';

/** The outbox keeps the trace context of the request behind each event. */
export const OutboxTraceContext1796000000000 = outboxTraceContextMigration('OutboxTraceContext1796000000000', 'reminders');
