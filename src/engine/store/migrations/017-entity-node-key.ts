import { mergeKey } from '../../graph/name-forms.ts';
import type { Migration } from './types.ts';

/**
 * One node for the forms of one name (graph/name-forms.ts): `entities.node_key` is the key of the
 * node an entity stands for, its folded name with each capitalised word in its merge form
 * ("WebSockets" → "websocket", "Москвой" → "москв"). Entities of one node key are one node in every
 * reader of the graph (the loaded graph, the stored reader, the global view, the graph list); a
 * name's own key (`key`) still says which note it names.
 *
 * Existing entities get theirs here, from their stored names, with the function the store writes
 * new ones with. A change of the rule comes with a migration that computes them again.
 */
export const migration017: Migration = {
  version: 17,
  name: 'entity-node-key',
  up(db) {
    db.exec(`
      ALTER TABLE entities ADD COLUMN node_key TEXT NOT NULL DEFAULT '';
    `);
    const set = db.prepare('UPDATE entities SET node_key = ? WHERE id = ?');
    for (const e of db.prepare('SELECT id, type, name FROM entities').all() as { id: number; type: string; name: string }[]) set.run(mergeKey(e.type, e.name), e.id);
    db.exec('CREATE INDEX entities_node_key ON entities (node_key)');
  },
};
