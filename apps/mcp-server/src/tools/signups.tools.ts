import {
  AnalyticsView,
  CreateSignupDto,
  DraftFromDescriptionDto,
  ListSignupsQueryDto,
  MAX_SERIES_COPIES,
  MeView,
  SignupDraftView,
  SignupListView,
  SignupPageView,
  SignupView,
} from '#libs/contracts';
import { DuplicateSignupArgs, NoArgs, SeriesRef, SignupRef, UpdateSignupArgs } from './args.js';
import { ADD, CHANGE, defineTool, READ } from './tool.js';

export const SIGNUP_TOOLS = [
  defineTool({
    name: 'whoami',
    title: 'Who am I',
    description:
      'Tells who this connection acts for: the user, their organization (name, tier: free, pro or org, and the IANA time zone its signups ' +
      'take by default), the scopes granted to this ' +
      'connection and the OAuth client id. Call it first when unsure which tools will be allowed: a tool whose scope is missing answers ' +
      'scope_required, and the user must reconnect granting that scope.',
    subject: 'auth.me',
    input: NoArgs,
    output: MeView,
    hints: READ,
    run: (_args, { request, principal }) => request({ principal }),
  }),
  defineTool({
    name: 'list_signups',
    title: 'List signups',
    description:
      "Lists the organization's signup sheets, newest event first, 20 per page (limit up to 100). Filter with status (draft, published, " +
      'closed) or seriesId (the signups duplicate_signup put in one series). When nextCursor is not null, call again with cursor set to it ' +
      'for the next page. Each signup has its id for the other tools.',
    subject: 'signups.list',
    input: ListSignupsQueryDto,
    output: SignupPageView,
    hints: READ,
    run: ({ limit, cursor, status, seriesId }, { request, principal }) =>
      request({ principal, query: { limit, cursor, status, seriesId } }),
  }),
  defineTool({
    name: 'get_signup',
    title: 'Get a signup',
    description:
      'Reads one signup with its time slots and items, and what remains of each (remaining places, quantities still needed). ' +
      'Use it before registering someone, to pick slot and item ids, or to check what is still missing.',
    subject: 'signups.get',
    input: SignupRef,
    output: SignupView,
    hints: READ,
    run: ({ signupId }, { request, principal }) => request({ principal, id: signupId.toLowerCase() }),
  }),
  defineTool({
    name: 'get_signup_analytics',
    title: 'Signup analytics',
    description:
      'Fill rates, gaps (slots and items still short, the shortest first) and response times of a signup, computed now. ' +
      'Use it to tell the organizer what still needs volunteers or contributions.',
    subject: 'signups.analytics',
    input: SignupRef,
    output: AnalyticsView,
    hints: READ,
    run: ({ signupId }, { request, principal }) => request({ principal, signupId: signupId.toLowerCase() }),
  }),
  defineTool({
    name: 'create_signup',
    title: 'Create a signup',
    description:
      'Creates a signup sheet as a draft: a title and the event date and time (ISO 8601 with a time zone, e.g. 2026-12-24T18:00:00Z) ' +
      'are required. timeZone (an IANA name such as America/New_York; offsets are refused) is the zone people see its dates and times in, ' +
      "by default the organization's. reminderHoursBefore (0 to 336, default 24) is how many hours before the event participants get " +
      'the automatic reminder (SMS and email); 0 sends none. Then add time slots (add_slots) and items to bring (add_items), and publish ' +
      'it (publish_signup) so people can register ' +
      'at its publicUrl. questions (at most 50) are asked on registration: type short_text, long_text, single_choice or multiple_choice ' +
      '(with options), yes_no or number (with optional min and max), a label, and required. ' +
      'At most 50 signups per organization per UTC day (daily_ceiling_exceeded past it). With waitlist.enabled, ' +
      'people who do not fit a full slot, item or maxParticipants join a line instead of being turned away: waitlist.mode auto moves ' +
      'the first in line in when a place frees, offer holds the place for them for waitlist.offerMinutes (default 1440).',
    subject: 'signups.create',
    input: CreateSignupDto,
    output: SignupView,
    hints: ADD,
    run: (input, { request, principal }) => request({ principal, input: { ...input } }),
  }),
  defineTool({
    name: 'update_signup',
    title: 'Update a signup',
    description:
      'Changes the fields given of a signup and leaves the others; null clears description, location, maxParticipants or signupCloseDate. ' +
      'maxParticipants may not drop below the participants already registered (conflict). questions, when given, replace the list: ' +
      'give an existing question with its id to keep it and its answers; one left out is no longer asked (its answers are kept). ' +
      'waitlist changes the settings given (enabled, mode, offerMinutes) and keeps the others. timeZone (an IANA name) changes the zone ' +
      'people see its dates and times in; the instants stay as they are. reminderHoursBefore (0 to 336; 0: none) changes when the ' +
      'automatic reminder goes out; one already sent for the event date is not sent again.',
    subject: 'signups.update',
    input: UpdateSignupArgs,
    output: SignupView,
    hints: CHANGE,
    run: ({ signupId, ...input }, { request, principal }) => request({ principal, id: signupId.toLowerCase(), input }),
  }),
  defineTool({
    name: 'publish_signup',
    title: 'Publish a signup',
    description:
      'Publishes a draft so people can register at its publicUrl (share that link). Publishing an already published signup changes ' +
      'nothing; a closed signup cannot be published again (conflict).',
    subject: 'signups.publish',
    input: SignupRef,
    output: SignupView,
    hints: { ...CHANGE, destructiveHint: false },
    run: ({ signupId }, { request, principal }) => request({ principal, id: signupId.toLowerCase() }),
  }),
  defineTool({
    name: 'close_signup',
    title: 'Close a signup',
    description:
      'Closes a published signup: registrations stop for good, and it cannot be published again. Participants keep their registrations. ' +
      'Closing a closed signup changes nothing; a draft cannot be closed (conflict). Confirm with the user first.',
    subject: 'signups.close',
    input: SignupRef,
    output: SignupView,
    hints: CHANGE,
    run: ({ signupId }, { request, principal }) => request({ principal, id: signupId.toLowerCase() }),
  }),
  defineTool({
    name: 'draft_signup_ai',
    title: 'Draft a signup with AI',
    description:
      'Turns a free-text description ("potluck next Saturday at 5pm in the park: 2 salads, 3 desserts") into a proposed signup with slots ' +
      "and items. Times written in it are read in timeZone (an IANA name), by default the organization's; the draft says which zone it used. " +
      'Creates nothing: show the draft to the user, then create it with create_signup (with the same timeZone), add_slots and add_items. ' +
      "Uses one of the organization's monthly AI drafts (upgrade_required when the month's are used up). It may take up to two minutes.",
    subject: 'signups.drafts.create',
    input: DraftFromDescriptionDto,
    output: SignupDraftView,
    hints: { ...ADD, openWorldHint: true },
    run: ({ description, timeZone }, { request, principal }) => request({ principal, input: { description, timeZone } }),
  }),
  defineTool({
    name: 'duplicate_signup',
    title: 'Duplicate a signup into a series',
    description:
      'Copies a signup to other dates, as drafts with its settings, questions, time slots and items (slot times moved with the event) and ' +
      'no participants; the signup and its copies share a seriesId. Give exactly one of eventDate (one ISO 8601 date-time), eventDates ' +
      '(a list) or recurrence: frequency daily, weekly or monthly, interval (every so many; default 1), and exactly one of until (an ' +
      "instant, inclusive) or count; a recurrence keeps the signup's wall-clock time in its time zone (18:00 stays 18:00 across daylight " +
      `saving changes). Every date must be in the future; at most ${MAX_SERIES_COPIES} copies per call, each counting against the ` +
      'daily limit of signups (daily_ceiling_exceeded: then none is made). Publish them all with publish_series.',
    subject: 'signups.duplicate',
    input: DuplicateSignupArgs,
    output: SignupListView,
    hints: ADD,
    run: ({ signupId, ...input }, { request, principal }) => request({ principal, id: signupId.toLowerCase(), input }),
  }),
  defineTool({
    name: 'publish_series',
    title: 'Publish a series',
    description:
      'Publishes every draft of a series (the seriesId that duplicate_signup gave the signup and its copies) at once, so people can ' +
      'register on each; published and closed ones stay as they are. Answers the signups it published.',
    subject: 'signups.series.publish',
    input: SeriesRef,
    output: SignupListView,
    hints: { ...CHANGE, destructiveHint: false },
    run: ({ seriesId }, { request, principal }) => request({ principal, seriesId: seriesId.toLowerCase() }),
  }),
  defineTool({
    name: 'close_series',
    title: 'Close a series',
    description:
      'Closes every published signup of a series at once: registrations stop for good on each (drafts stay drafts). Answers the ' +
      'signups it closed. Confirm with the user first.',
    subject: 'signups.series.close',
    input: SeriesRef,
    output: SignupListView,
    hints: CHANGE,
    run: ({ seriesId }, { request, principal }) => request({ principal, seriesId: seriesId.toLowerCase() }),
  }),
];
