import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_CODES } from './catalog.js';

class FieldErrorSchema {
  @ApiProperty({ example: 'selections.0.id' }) path!: string;
  @ApiProperty({ example: 'Invalid uuid' }) message!: string;
}

/** RFC 9457 problem details as served with application/problem+json (the shape of ProblemBody), for OpenAPI and MCP output schemas. */
export class ProblemSchema {
  @ApiProperty({ format: 'uri' }) type!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer' }) status!: number;
  @ApiProperty({ enum: PROBLEM_CODES }) code!: string;
  @ApiPropertyOptional() detail?: string;
  @ApiPropertyOptional({ description: 'The request id.' }) instance?: string;
  @ApiPropertyOptional({ type: FieldErrorSchema, isArray: true }) errors?: FieldErrorSchema[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) cause?: Record<string, unknown>;
}
