/**
 * Trimmed copy of the Aurora SDK sync loop (sdk/core/src/sync_engine.ts).
 *
 * The engine pushes local operations to the relay in batches and pulls
 * remote operations back. Failed pushes are retried with jittered
 * exponential backoff; after MAX_RETRIES the app sees AUR-503.
 */

export const DEFAULT_RELAY_PORT = 7443; // must match DefaultPort in relay config.go
export const MAX_RETRIES = 5;
export const BASE_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 30_000; // never wait more than 30 seconds between attempts
export const BATCH_SIZE = 512; // relay rejects larger batches with AUR-413

export interface Operation {
  id: string;
  partition: string;
  record: string;
  field: string;
  hlc: string; // "<physicalMillis>:<counter>"
  deviceId: string;
  ciphertext: Uint8Array;
}

export interface RelayTransport {
  push(batch: Operation[]): Promise<{ accepted: number; cursor: string }>;
  pull(cursor: string): Promise<{ ops: Operation[]; cursor: string }>;
}

export class SyncError extends Error {
  constructor(
    readonly code: "AUR-409" | "AUR-413" | "AUR-429" | "AUR-503" | "AUR-1102",
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** Jittered exponential backoff: 250 ms, 500 ms, 1 s, ... capped at 30 s. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exp = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
  // "Full jitter": spreads Greenway's depot reconnect storm over the whole window.
  return Math.floor(random() * exp);
}

export function relayUrl(host: string, port: number = DEFAULT_RELAY_PORT): string {
  return `wss://${host}:${port}/v3/sync`;
}

export class SyncEngine {
  private cursor = "0";
  private pending: Operation[] = [];
  private running = false;

  constructor(
    private readonly transport: RelayTransport,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  enqueue(op: Operation): void {
    this.pending.push(op);
  }

  /** One full sync round: push everything pending, then pull. */
  async syncOnce(): Promise<Operation[]> {
    if (this.running) return [];
    this.running = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.slice(0, BATCH_SIZE);
        await this.pushWithRetry(batch);
        this.pending = this.pending.slice(batch.length);
      }
      const { ops, cursor } = await this.transport.pull(this.cursor);
      this.cursor = cursor;
      return ops;
    } finally {
      this.running = false;
    }
  }

  private async pushWithRetry(batch: Operation[]): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      try {
        await this.transport.push(batch);
        return;
      } catch (err) {
        lastError = err;
        if (err instanceof SyncError && err.code === "AUR-1102") {
          // Schema mismatch: retrying cannot help, the app has to upgrade.
          throw err;
        }
        if (attempt < MAX_RETRIES) {
          await this.sleep(backoffDelay(attempt));
        }
      }
    }
    throw new SyncError("AUR-503", `relay unavailable after ${MAX_RETRIES} retries: ${String(lastError)}`);
  }
}
