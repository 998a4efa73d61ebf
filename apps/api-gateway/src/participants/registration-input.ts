import type { RegistrationDto, RegistrationInput, SelectionDto, SelectionInput, UpdateRegistrationDto, UpdateRegistrationInput } from '#libs/contracts';

const selection = (s: SelectionDto): SelectionInput => ({ type: s.type, id: s.id.toLowerCase(), ...(s.quantity !== undefined && { quantity: s.quantity }) });

/** A validated registration body as the bus payload (plain data, ids lower-cased). */
export function toRegistrationInput(dto: RegistrationDto): RegistrationInput {
  return { name: dto.name, email: dto.email, ...(dto.phone !== undefined && { phone: dto.phone }), selections: dto.selections.map(selection) };
}

/** A validated registration edit as the bus payload. */
export function toUpdateRegistrationInput(dto: UpdateRegistrationDto): UpdateRegistrationInput {
  return {
    ...(dto.name !== undefined && { name: dto.name }),
    ...(dto.phone !== undefined && { phone: dto.phone }),
    ...(dto.selections !== undefined && { selections: dto.selections.map(selection) }),
  };
}
