/**
 * An engine's watch over damage to its store: the quick integrity check, run once per engine
 * (health, the first index run), and the guard that makes search, sources and answers refuse a
 * store known to be damaged (by this engine, or recorded by another process's health, index or
 * read): damaged pages that read without an error still give a wrong top hit, or "not found" for a
 * note that is there. A read that meets damage records it.
 */
import { storeDamagedError } from './database.ts';
import { checkStoreIntegrity, clearDamage, recordDamage, recordedDamage, storeDamage, type IntegrityReport } from './integrity.ts';
import type { Store } from './store.ts';

export interface DamageGuard {
  /** The store's quick integrity check, run once per engine. */
  storeIntegrity: () => IntegrityReport;
  /** `run`, refused while the store is known to be damaged; damage it meets is recorded. */
  refuseDamaged: <A extends unknown[], R>(run: (...args: A) => R) => (...args: A) => R;
}

export function createDamageGuard(store: Store, dataDir: string): DamageGuard {
  let integrity: IntegrityReport | null = null;
  /** Damage this engine knows of: found by the check, or met by a read. */
  let damage: string | null = null;
  const storeIntegrity = () => {
    if (integrity) return integrity;
    integrity = checkStoreIntegrity(store.db);
    if (integrity.status === 'damaged') recordDamage(dataDir, (damage = integrity.problems.slice(0, 3).join('; ')));
    else if (integrity.status === 'ok') clearDamage(dataDir);
    return integrity;
  };
  const refuseDamaged = <A extends unknown[], R>(run: (...args: A) => R): ((...args: A) => R) => {
    const met = (error: unknown): unknown => {
      const found = storeDamage(dataDir, error);
      if (!found) return error;
      damage ??= String(found.details?.reason ?? found.message);
      recordDamage(dataDir, damage);
      return found;
    };
    return (...args: A): R => {
      const known = damage ?? recordedDamage(dataDir);
      if (known) throw storeDamagedError(dataDir, known);
      try {
        const result = run(...args);
        return (result instanceof Promise ? result.catch((error: unknown) => Promise.reject(met(error))) : result) as R;
      } catch (error) {
        throw met(error);
      }
    };
  };
  return { storeIntegrity, refuseDamaged };
}
