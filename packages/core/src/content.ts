import { setOwn } from './object.js';
import type { MessageFields } from './protocol.js';
import type { BlockState, LiveMessage } from './state.js';

/** How many blocks at the end of the content an event may change without copying the rest. */
const TAIL = 8;

/**
 * A live message's content as the reducer keeps it, so that an event costs the same at any
 * number of blocks. Blocks before `settled` live in `head`, an array shared (append-only) by
 * the successive states of a stream: each state reads only its own first `settled` entries,
 * so appending past them changes nothing any earlier state shows. The last few blocks, where
 * deltas land, are in `tail`, copied when one changes. `message.content` is built from both
 * when first read and kept, so repeated reads return the same array.
 *
 * A change to a block further back than `TAIL` (the API streams blocks one after another,
 * so only a reordered stream does that) copies the content once.
 */
export class Content {
  array: readonly BlockState[] | undefined;

  constructor(
    /** The message without its content; shared by states whose fields did not change. */
    readonly fields: MessageFields,
    readonly head: BlockState[],
    readonly settled: number,
    readonly tail: readonly BlockState[],
  ) {}

  get size(): number {
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

/** Content of these blocks: the last one in the tail, where the next delta lands. */
export function contentFrom(fields: MessageFields, blocks: readonly BlockState[]): Content {
  const split = Math.max(0, blocks.length - 1);
  return new Content(fields, blocks.slice(0, split), split, blocks.slice(split));
}

const CONTENT_PROPERTY: PropertyDescriptor = {
  get(this: LiveContentMessage) {
    return LiveContentMessage.contentOf(this)?.blocks();
  },
  set(this: LiveContentMessage, blocks: readonly BlockState[]) {
    // State is not meant to be written, but a write must behave as on a plain object.
    LiveContentMessage.replace(this, blocks);
  },
  enumerable: true,
  configurable: true,
};

/**
 * A message whose `content` is materialized from its `Content` when read. `content` is an
 * own, enumerable property, so spreads, `toEqual`, `JSON.stringify` and `structuredClone` see
 * the array as on any plain message. A class, so the `Content` rides in a private field
 * (invisible to all of those) and every instance shares one accessor and one V8 shape: that
 * makes an event as cheap as the plain copy it replaces (a closure getter per message or a
 * side table costs several times more).
 */
class LiveContentMessage {
  #content: Content;

  constructor(content: Content) {
    const fields = content.fields;
    if (Object.hasOwn(fields, '__proto__')) {
      // A field from the wire stays a field (assigning it would swap the prototype).
      for (const key of Object.keys(fields)) setOwn(this as never, key, fields[key]);
    } else {
      Object.assign(this, fields);
    }
    this.#content = content;
    Object.defineProperty(this, 'content', CONTENT_PROPERTY);
  }

  static contentOf(message: object): Content | undefined {
    return #content in message ? message.#content : undefined;
  }

  static replace(message: LiveContentMessage, blocks: readonly BlockState[]): void {
    const content = contentFrom(message.#content.fields, blocks);
    content.array = blocks;
    message.#content = content;
  }
}

export const liveMessage = (content: Content): LiveMessage =>
  new LiveContentMessage(content) as unknown as LiveMessage;

/** The `Content` of a message: its own when the reducer made it, else one built once from it. */
export function contentOf(message: LiveMessage): Content {
  const own = LiveContentMessage.contentOf(message);
  if (own !== undefined) return own;
  const { content, ...fields } = message;
  return contentFrom(fields, Array.isArray(content) ? content : []);
}

export function withFields(content: Content, fields: MessageFields): Content {
  const next = new Content(fields, content.head, content.settled, content.tail);
  next.array = content.array;
  return next;
}

/** The content with the block at `position` replaced. */
export function replaced(content: Content, position: number, block: BlockState): Content {
  const { fields, head, settled } = content;
  if (position >= settled) {
    const tail = content.tail.slice();
    tail[position - settled] = block;
    return new Content(fields, head, settled, tail);
  }
  const blocks = content.blocks().slice();
  blocks[position] = block;
  return contentFrom(fields, blocks);
}

/** The content with `block` inserted at `position` (at the end, in a stream in order). */
export function inserted(content: Content, position: number, block: BlockState): Content {
  const { fields, settled, tail } = content;
  if (position !== content.size) {
    const blocks = content.blocks().slice();
    blocks.splice(position, 0, block);
    return contentFrom(fields, blocks);
  }
  if (tail.length < TAIL) return new Content(fields, content.head, settled, [...tail, block]);
  // Another state reduced from an older one already appended past ours: branch off once.
  const head = content.head.length === settled ? content.head : content.head.slice(0, settled);
  for (const entry of tail) head.push(entry);
  return new Content(fields, head, settled + tail.length, [block]);
}
