import type { DeliveryStatus } from '#libs/contracts';

/** A delivery of one event to one endpoint, as its history shows it. */
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastResponseStatus: number | null;
  errorMessage: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}
