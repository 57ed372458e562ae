/**
 * The error-code table (docs/design.md §2). Every error that crosses a boundary (RPC, CLI, MCP)
 * is one of these codes, serialised as {code, message, retryable}.
 */
export const ERROR_CODES = {
  E_SYN_INDEX_FAILED: { retryable: true, meaning: 'Index build failed' },
  E_SYN_RETRIEVE_DENIED: { retryable: false, meaning: 'Policy denied retrieval of the requested sources' },
  E_SYN_VECTORSTORE_UNAVAILABLE: { retryable: true, meaning: 'Vector store unavailable' },
  E_SYN_CHUNK_PARSE_FAILED: { retryable: false, meaning: 'Unable to parse or segment a file' },
  E_SYN_EMBED_FAILED: { retryable: true, meaning: 'Embedding call failed' },
  E_SYN_INDEX_VERSION_MISMATCH: { retryable: false, meaning: 'Index version required but missing or incompatible' },
  E_SYN_BAD_REQUEST: { retryable: false, meaning: 'The request or its arguments are invalid' },
  E_SYN_NOT_FOUND: { retryable: false, meaning: 'The requested document, lines or entity are not in the index' },
  E_SYN_MODEL_UNAVAILABLE: { retryable: true, meaning: 'The model is missing or cannot be loaded' },
  E_SYN_STORE_FAILED: { retryable: true, meaning: 'The local store could not be opened or written' },
  E_SYN_STORE_DAMAGED: { retryable: false, meaning: 'The local store is damaged or lost: synapsis repair rebuilds it from the indexed folders' },
  E_SYN_DISCONNECTED: { retryable: true, meaning: 'The engine is not reachable (restarting, or the connection closed)' },
  E_SYN_INTERNAL: { retryable: false, meaning: 'An unexpected error inside Synapsis; the message says what failed' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface SerializedError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export class SynapsisError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SynapsisError';
    this.code = code;
    this.retryable = ERROR_CODES[code].retryable;
    this.details = details;
  }

  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export function createError(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  cause?: unknown,
): SynapsisError {
  return new SynapsisError(code, message, details, cause === undefined ? undefined : { cause });
}

export function isSynapsisError(value: unknown): value is SynapsisError {
  return value instanceof SynapsisError;
}

/**
 * Turns anything thrown into the wire shape; unknown errors become `fallback`. The default names no
 * operation: an unexpected error in a search is not an index build failure.
 */
export function serializeError(error: unknown, fallback: ErrorCode = 'E_SYN_INTERNAL'): SerializedError {
  if (error instanceof SynapsisError) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallback, message, retryable: ERROR_CODES[fallback].retryable };
}
