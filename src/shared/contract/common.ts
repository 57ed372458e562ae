/**
 * Pieces every namespace of the contract shares.
 */
import { z } from 'zod';

/** The request of a method that takes no arguments. */
export const Empty = z.object({}).strict();
