import type { INestApplication } from '@nestjs/common';
import { ASSETS_ROUTE } from '../assets/assets.controller.js';
import { CALENDAR_ROUTES } from '../calendars/calendar-routes.js';
import { DASHBOARD_ROUTES } from '../dashboard/dashboard.service.js';
import { API_PREFIX } from '../openapi/openapi.js';
import { MAILBOX_ROUTES } from '../pages/mailbox.controller.js';
import { PAGE_ROUTES } from '../pages/pages.controller.js';
import { UNSUBSCRIBE_ROUTES } from '../pages/unsubscribe.controller.js';
import { TWILIO_INBOUND_ROUTE } from '../reminders/twilio-signature.guard.js';

/** `/api/v1` before every route but the probes, the problem pages, the public pages, their stylesheet and feeds, the dashboard, and Twilio's webhook. */
export function useApiPrefix(app: INestApplication): void {
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      'healthz',
      'readyz',
      'metrics',
      'problems/:slug',
      ASSETS_ROUTE,
      TWILIO_INBOUND_ROUTE,
      ...PAGE_ROUTES,
      ...MAILBOX_ROUTES,
      ...UNSUBSCRIBE_ROUTES,
      ...CALENDAR_ROUTES,
      ...DASHBOARD_ROUTES,
    ],
  });
}
