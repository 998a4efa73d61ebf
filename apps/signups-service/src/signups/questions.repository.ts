import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Question } from './question.js';

const QUESTIONS = `"${SIGNUPS_SCHEMA}"."questions"`;

/**
 * A column expression for a signup read in one statement: the questions it asks (not removed) as
 * one JSON array of Question, in their order; `signupId` is the SQL of its id.
 */
export function questionsJsonSql(signupId: string): string {
  return `(SELECT COALESCE(json_agg(json_build_object('id', q.id, 'type', q.type, 'label', q.label, 'required', q.required,
      'options', q.options, 'min', q.min, 'max', q.max) ORDER BY q.position), '[]')
    FROM ${QUESTIONS} q WHERE q.signup_id = ${signupId} AND q.removed_at IS NULL)`;
}

/**
 * A signup's questions. Writes run in the caller's transaction, after it locked (or wrote) the
 * signup's row, so two replacements of one signup's questions apply one after the other.
 */
@Injectable()
export class QuestionsRepository {
  /** The questions the signup asks now (removed ones left out): their types, by id. */
  async typesOf(db: EntityManager, signupId: string): Promise<Map<string, Question['type']>> {
    const rows = await rowsOf<{ id: string; type: Question['type'] }>(
      db,
      `SELECT id, type FROM ${QUESTIONS} WHERE signup_id = $1 AND removed_at IS NULL`,
      [signupId],
    );
    return new Map(rows.map((row) => [row.id, row.type]));
  }

  /**
   * Makes `questions` (ids given, in order) the signup's questions: the ones already asked are
   * rewritten in place (their answers still name them), new ones inserted, and the others marked
   * removed (their rows, and the answers given to them, stay).
   */
  async replace(db: EntityManager, signupId: string, questions: Question[]): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${QUESTIONS} SET removed_at = now() WHERE signup_id = $1 AND removed_at IS NULL AND NOT (id = ANY($2::uuid[]))`,
      [signupId, questions.map((q) => q.id)],
    );
    if (questions.length === 0) return;
    await rowsOf(
      db,
      `INSERT INTO ${QUESTIONS} AS q (id, signup_id, position, type, label, required, options, min, max)
       SELECT x.id, $1, x.position, x.type, x.label, x.required, x.options, x.min, x.max
       FROM jsonb_to_recordset($2::jsonb)
         AS x(id uuid, position integer, type text, label text, required boolean, options jsonb, min double precision, max double precision)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, type = excluded.type, label = excluded.label,
         required = excluded.required, options = excluded.options, min = excluded.min, max = excluded.max
       WHERE q.signup_id = excluded.signup_id`,
      [signupId, JSON.stringify(questions.map((q, position) => ({ ...q, position })))],
    );
  }
}
