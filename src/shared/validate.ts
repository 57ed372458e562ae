import type { z } from 'zod';
import { contract, type Method, type ParsedRequestOf } from './contract.ts';
import { createError } from './errors.ts';

/** Formats zod issues as one readable line per problem, naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'request';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/** Validates a request at the engine boundary; bad input becomes E_SYN_BAD_REQUEST. */
export function parseRequest<M extends Method>(method: M, input: unknown): ParsedRequestOf<M> {
  const result = contract[method].request.safeParse(input ?? {});
  if (!result.success) {
    throw createError('E_SYN_BAD_REQUEST', `Invalid ${method} request: ${describeIssues(result.error)}`, {
      method,
    });
  }
  return result.data as ParsedRequestOf<M>;
}
