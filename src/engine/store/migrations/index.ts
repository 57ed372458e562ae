import { migration001 } from './001-initial.ts';
import { migration002 } from './002-index-jobs.ts';
import { migration003 } from './003-analyzed-fts.ts';
import { migration004 } from './004-embed-hash.ts';
import { migration005 } from './005-traces.ts';
import { migration006 } from './006-graph.ts';
import { migration007 } from './007-sensitivity-index.ts';
import { migration008 } from './008-chunk-lang.ts';
import { migration009 } from './009-chunk-sentences.ts';
import { migration010 } from './010-graph-adjacency.ts';
import { migration011 } from './011-threads.ts';
import { migration012 } from './012-note-degrees.ts';
import { migration013 } from './013-public-degrees.ts';
import { migration014 } from './014-fts-marks.ts';
import { migration015 } from './015-turn-passages.ts';
import { migration016 } from './016-lower-writings.ts';
import { migration017 } from './017-entity-node-key.ts';
import { migration018 } from './018-trigram-automerge.ts';
import { migration019 } from './019-drop-chunk-embed-hash-index.ts';
import { migration020 } from './020-note-links.ts';
import type { Migration } from './types.ts';

/** All migrations in order; a new schema change appends one numbered file here. */
export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration011, migration012, migration013, migration014, migration015, migration016, migration017, migration018, migration019, migration020];
