/**
 * Pieces every namespace of the contract shares.
 */
import { z } from 'zod';

/** The request of a method that takes no arguments. */
export const Empty = z.object({}).strict();

/** Thread ids are the store's: `t_` and 16 hex digits. */
export const ThreadIdSchema = z.string().regex(/^t_[0-9a-f]{16}$/, 'not a thread id (t_ and 16 hex digits; synapsis threads list shows them)');
