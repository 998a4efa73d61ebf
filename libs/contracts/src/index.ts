export { authorize, authorized, requirementOf, type Authorized, type Principal } from './principal.js';
export {
  ArrayField, BoolField, DateTimeField, EMAIL_MAX_LENGTH, EnumField, EnumListField, IntField, PHONE_MESSAGE, PatternField, PhoneField, isEmailAddress, isPhoneNumber, QueryIntField, StringField, UNICODE_MESSAGE, UuidField, isWellFormed, toE164, validateInput,
} from './validation.js';
export { constantTimeEqual, isUuid, newId, newPrefixedId, randomBase62, requireUuid, sha256Hex, type IdPrefix } from './ids.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageMetaDto, PageQueryDto, decodeCursor, encodeCursor, pageOf, type CursorPosition, type Page } from './pagination.js';
export {
  CreateSignupDto, ListSignupsQueryDto, SIGNUP_STATUSES, SignupPageView, SignupView, UpdateSignupDto,
  type CreateSignupInput, type ListSignupsInput, type SignupStatus, type UpdateSignupInput,
} from './signups.js';
export {
  API_KEY_PATTERN, AdminCreateApiKeyDto, AdminCreateOrgDto, AdminCreateUserDto, AdminSetTierDto, CredentialView, KEY_MODES, MEMBER_ROLES,
  MeView, OrganizationSummary, OrganizationView, ROLE_SCOPES, type ApiKeyView, type CreatedApiKey, type KeyMode, type MemberRole, type UserView,
} from './auth.js';
export {
  SUBJECT_CATALOG, SUBJECTS, deadlineOf, subjectsOf, type EdgeSubject, type HandlersOf, type RequestMap, type RequestOf, type ResponseOf, type ServiceName,
  type Subject, type SubjectsOf,
} from './subjects.js';
export {
  EVENT_TYPES, eventSubject, type CloudEvent, type EventMap, type EventType, type ItemEventData, type ParticipantEventData, type SlotEventData,
} from './events.js';
export {
  CreateItemDto, CreateItemsDto, CreateSlotDto, CreateSlotsDto, ItemListView, ItemView, MAX_CAPACITY, SlotListView, SlotView, UpdateItemDto, UpdateSlotDto,
  type CreateItemInput, type CreateSlotInput, type UpdateItemInput, type UpdateSlotInput,
} from './slots-items.js';
export {
  CONFIRMATION_TOKEN_PATTERN, ConfirmedSelectionView, FAILURE_REASONS, FailedSelectionView, ParticipantPageView, ParticipantView, PublicSignupView, RegistrationDto,
  RegistrationResultView, RegistrationView, SELECTION_TYPES, SelectionDto, SelectionView, UpdateParticipantDto, UpdateRegistrationDto,
  missingRequiredPhone, toRegistrationInput, toUpdateRegistrationInput,
  type FailureReason, type RegistrationInput, type SelectionInput, type SelectionType, type UpdateParticipantInput, type UpdateRegistrationInput,
} from './participants.js';
export { AnalyticsView } from './analytics.js';
export { jsonSchemaOf, type JsonSchema, type JsonSchemaOptions } from './json-schema.js';
export { cloudEvent } from './cloud-event.js';
export { newSlug, slugBase } from './slug.js';
export { ACCESS_TOKEN_CLAIMS, accessTokenJwt, OAUTH_ARTIFACT_PREFIXES, oauthIssuer, protectedResourceMetadata } from './oauth-metadata.js';
export { SECONDS_PER_DAY, utcDay } from './utc-day.js';
export {
  ALL_EVENT_TYPES, CreateWebhookDto, DEFAULT_DELIVERY_PAGE, DELIVERY_STATUSES, DeliveryPageQueryDto, DeliveryPageView, DeliveryView, MAX_DELIVERY_PAGE,
  PAUSED_REASONS, UpdateWebhookDto, WEBHOOK_EVENT_TYPES, WebhookEndpointView, WebhookPageView, WebhookTestView,
  WebhookWithSecretView, type CreateWebhookInput, type DeliveryStatus, type PausedReason, type UpdateWebhookInput, type WebhookEventType,
} from './webhooks.js';
export { DraftFromDescriptionDto, DraftItemDto, DraftSlotDto, SignupDraftDto, SignupDraftView, type SignupDraft } from './drafts.js';
export {
  NOT_ELIGIBLE_REASONS, NotEligibleView, OutboxListView, OutboxMessageView, REMINDER_TRIGGERS, ReminderPassView, type InboundSms, type NotEligibleReason,
  type ReminderSentData, type ReminderTrigger,
} from './reminders.js';
export { BUS_ACCESS, DURABLES, busAccessOf, type BusAccess, type DurableAccess, type DurableEventType } from './bus-access.js';
