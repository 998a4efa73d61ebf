import { sqlMigration } from '#libs/persistence';

/**
 * A signup's own questions, and the participants' answers to them. A question taken off the form
 * keeps its row (removed_at), so the answers given to it, kept on the participants, still name it.
 */
export const AddQuestions1796610000000 = sqlMigration('AddQuestions1796610000000', {
  up: [
    `CREATE TABLE "signups"."questions" (
       "id" uuid PRIMARY KEY,
       "signup_id" uuid NOT NULL REFERENCES "signups"."signups" ("id") ON DELETE CASCADE,
       "position" integer NOT NULL,
       "type" text NOT NULL,
       "label" text NOT NULL,
       "required" boolean NOT NULL DEFAULT false,
       "options" jsonb NULL,
       "min" double precision NULL,
       "max" double precision NULL,
       "created_at" timestamptz NOT NULL DEFAULT now(),
       "removed_at" timestamptz NULL,
       CONSTRAINT "questions_type_check"
         CHECK ("type" IN ('short_text', 'long_text', 'single_choice', 'multiple_choice', 'yes_no', 'number'))
     )`,
    `CREATE INDEX "questions_signup_position_idx" ON "signups"."questions" ("signup_id", "position") WHERE "removed_at" IS NULL`,
    `ALTER TABLE "signups"."participants" ADD COLUMN "answers" jsonb NOT NULL DEFAULT '{}'`,
  ],
  down: [`ALTER TABLE "signups"."participants" DROP COLUMN "answers"`, `DROP TABLE "signups"."questions"`],
});
