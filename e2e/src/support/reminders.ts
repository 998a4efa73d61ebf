import type { ReminderChannelView, ReminderPassView } from '#libs/contracts';

/** The answer of a pass by text alone (the default channel): its one channel's counts are the totals. */
export function smsPass(counts: ReminderChannelView): ReminderPassView {
  return { ...counts, channels: { sms: counts } };
}

/** The answer of a pass by email alone. */
export function emailPass(counts: ReminderChannelView): ReminderPassView {
  return { ...counts, channels: { email: counts } };
}
