import { signupsPerDayField, type ConfigOf } from '#libs/config';

export const signupsServiceSpec = {
  signupsPerDay: signupsPerDayField(),
};

export type SignupsServiceConfig = ConfigOf<typeof signupsServiceSpec>;
