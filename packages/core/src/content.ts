import { setOwn } from './object.js';
import type { MessageFields } from './protocol.js';
import type { BlockState, LiveMessage } from './state.js';

/**
 * How many blocks a message holds as a plain array, copied on every event (a copy this
 * small costs less than the bookkeeping below). Past it, the message keeps its blocks in a
 * `Store`, so an event costs the same at any number of blocks.
 */
const ARRAY_BLOCKS = 64;
/** How many blocks at the end of a `Store` an event may change without copying the rest. */
const TAIL = 8;

/**
 * The blocks of a large live message. Blocks before `settled` live in `head`, an array
 * shared (append-only) by the successive states of a stream: each state reads only its own
 * first `settled` entries, so appending past them changes nothing an earlier state shows.
 * The last few blocks, where deltas land, are in `tail`, copied when one changes.
 * `message.content` is built from both when first read and kept, so repeated reads of one
 * state return the same array. A change to a block further back than `TAIL` (the API
 * streams blocks one after another, so only a reordered stream does that) copies them all.
 */
class Store {
  array: readonly BlockState[] | undefined;

  constructor(
    /** The message without its content; shared by states whose fields did not change. */
    readonly fields: MessageFields,
    readonly head: BlockState[],
    readonly settled: number,
    readonly tail: readonly BlockState[],
  ) {}

  get length(): number {
    return this.settled + this.tail.length;
  }

  at(position: number): BlockState | undefined {
    return position < this.settled ? this.head[position] : this.tail[position - this.settled];
  }

  blocks(): readonly BlockState[] {
    if (this.array === undefined) this.array = this.head.slice(0, this.settled).concat(this.tail);
    return this.array;
  }
}

/** A store of these blocks, the last one in the tail, where the next delta lands. */
function storeOf(fields: MessageFields, blocks: readonly BlockState[]): Store {
  const split = Math.max(0, blocks.length - 1);
  return new Store(fields, blocks.slice(0, split), split, blocks.slice(split));
}

const CONTENT_PROPERTY: PropertyDescriptor = {
  get(this: StoredMessage) {
    return StoredMessage.storeOf(this)?.blocks();
  },
  enumerable: true,
  configurable: true,
};

/**
 * A large message, whose `content` is built from its `Store` when read. `content` is an own,
 * enumerable property, so spreads, `toEqual`, `JSON.stringify` and `structuredClone` see the
 * array as on any plain message. A class, so the store rides in a private field (invisible
 * to all of those) and every instance shares one accessor and one V8 shape (a getter
 * closure per message or a side table costs several times more per event).
 */
class StoredMessage {
  #store: Store;

  constructor(store: Store) {
    const fields = store.fields;
    if (Object.hasOwn(fields, '__proto__')) {
      // A field from the wire stays a field (assigning it would swap the prototype).
      for (const key of Object.keys(fields)) setOwn(this as never, key, fields[key]);
    } else {
      Object.assign(this, fields);
    }
    this.#store = store;
    Object.defineProperty(this, 'content', CONTENT_PROPERTY);
  }

  static storeOf(message: object): Store | undefined {
    return message instanceof StoredMessage ? message.#store : undefined;
  }
}

const stored = (store: Store): LiveMessage => new StoredMessage(store) as unknown as LiveMessage;

/**
 * What the reducer reads a message's blocks through: the array itself while it is small,
 * the store once it is large.
 */
export type Blocks = readonly BlockState[] | Store;

export const blocksOf = (message: LiveMessage): Blocks =>
  StoredMessage.storeOf(message) ?? message.content;

/** A message of these fields (no `content`) and blocks. */
export const messageOf = (fields: MessageFields, blocks: readonly BlockState[]): LiveMessage =>
  blocks.length < ARRAY_BLOCKS ? { ...fields, content: blocks } : stored(storeOf(fields, blocks));

/** The message's fields without its content. */
export function fieldsOf(message: LiveMessage): MessageFields {
  const store = StoredMessage.storeOf(message);
  if (store !== undefined) return store.fields;
  const { content: _content, ...fields } = message;
  return fields;
}

/** The message with other fields (a complete set, without `content`) and the same blocks. */
export function withFields(message: LiveMessage, fields: MessageFields): LiveMessage {
  const store = StoredMessage.storeOf(message);
  if (store === undefined) return { ...fields, content: message.content };
  const next = new Store(fields, store.head, store.settled, store.tail);
  next.array = store.array;
  return stored(next);
}

/** The message with the block at `position` replaced: what every delta does. */
export function replaced(message: LiveMessage, position: number, block: BlockState): LiveMessage {
  const store = StoredMessage.storeOf(message);
  if (store === undefined) {
    // V8's fastest copy of a plain message: a bare spread, then one store.
    const next: { -readonly [K in keyof LiveMessage]: LiveMessage[K] } = { ...message };
    const content = message.content.slice();
    content[position] = block;
    next.content = content;
    return next;
  }
  const { fields, head, settled } = store;
  if (position >= settled) {
    const tail = store.tail.slice();
    tail[position - settled] = block;
    return stored(new Store(fields, head, settled, tail));
  }
  const blocks = store.blocks().slice();
  blocks[position] = block;
  return stored(storeOf(fields, blocks));
}

/** The message with `block` inserted at `position` (the end, in a stream in order). */
export function inserted(message: LiveMessage, position: number, block: BlockState): LiveMessage {
  const store = StoredMessage.storeOf(message);
  if (store === undefined || position !== store.length) {
    const blocks = (store?.blocks() ?? message.content).slice();
    blocks.splice(position, 0, block);
    return store === undefined && blocks.length < ARRAY_BLOCKS
      ? { ...message, content: blocks }
      : stored(storeOf(fieldsOf(message), blocks));
  }
  const { fields, settled, tail } = store;
  if (tail.length < TAIL) return stored(new Store(fields, store.head, settled, [...tail, block]));
  // Another state reduced from an older one already appended past ours: branch off once.
  const head = store.head.length === settled ? store.head : store.head.slice(0, settled);
  for (const entry of tail) head.push(entry);
  return stored(new Store(fields, head, settled + tail.length, [block]));
}
